package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// An operator who comes second: the node to act on went before the
// action reached it. ZooKeeper does not record who deletes a node, so
// what is said comes from what can be known: this machine's audit log
// (another operator's audited delete), the owner session's connection
// (alive: deleted by another session; connected nowhere: its session
// ended), and when it went (between our read and our refusal).

// preciseUTC formats a time for an operator comparing two actions, to
// the millisecond.
func preciseUTC(t time.Time) string { return t.UTC().Format("15:04:05.000") + " UTC" }

// goneAfterRead explains an action refused because e's node went after
// it was read at readAt.
func goneAfterRead(ctx context.Context, conn *zkwatch.Conn, auditLog, action string, e lockclient.Expect, readAt time.Time) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s refused, nothing was changed: %s was already gone; it went between %s, when it was read, and %s",
		action, model.Printable(e.Path), preciseUTC(readAt), preciseUTC(time.Now()))
	if who, ok := auditedDelete(auditLog, e.Path, e.Czxid); ok {
		b.WriteString("; " + who)
	} else if e.EphemeralOwner != 0 {
		b.WriteString("; " + ownerNow(ctx, conn, e.EphemeralOwner))
	}
	return &exitError{code: exitFailed, err: fmt.Errorf("%s", b.String())}
}

// goneBeforeRead explains an action refused because node was not there
// to read.
func goneBeforeRead(auditLog, action, node string) error {
	text := fmt.Sprintf("%s refused, nothing was changed: %s does not exist", action, model.Printable(node))
	if who, ok := auditedDelete(auditLog, node, 0); ok {
		text += "; " + who
	} else {
		text += " (released, expired or force-released already, or never there; 'zklocks show' on its lock shows it now)"
	}
	return &exitError{code: exitFailed, err: fmt.Errorf("%s", text)}
}

// ownerNow says what the servers say of session now that its node went.
func ownerNow(ctx context.Context, conn *zkwatch.Conn, session int64) string {
	pollCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	e := zkwatch.NewEnricher(conn.Target().Servers, time.Second)
	e.TLS, e.Admin = conn.TLS(), conn.Admin()
	en := e.Poll(pollCtx)
	c := model.ClientOf(en.Clients, en.Complete, session)
	switch {
	case c.Addr != "":
		return fmt.Sprintf("its session %s is still connected (client %s): its client released it, or another operator "+
			"force-released it (ZooKeeper does not record who deletes a node)", model.SessionText(session), c)
	case c.Gone:
		return fmt.Sprintf("its session %s is connected to no member now: the session ended (expired, or closed by its client), "+
			"which deletes its nodes", model.SessionText(session))
	}
	return fmt.Sprintf("whether its session %s is still alive cannot be told: not every member listed its connections",
		model.SessionText(session))
}

// unknownNodeWindow is how far back a delete of a path is taken for the
// end of a node never read: a plain lock's path is reused by each holder.
const unknownNodeWindow = time.Hour

// auditedDelete looks in this machine's audit log for the newest delete
// of node (of that czxid, when not zero) that went through, and names who
// made it, from where and when.
func auditedDelete(auditLog, node string, czxid int64) (string, bool) {
	f, err := os.Open(auditLog)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var found *lockcore.Action
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		a, err := model.ParseAuditLine(sc.Bytes())
		if err != nil || a.Node != node || !a.Done() || !a.Kind.Deletes() || (czxid != 0 && a.Token != czxid) ||
			(czxid == 0 && time.Since(a.At) > unknownNodeWindow) {
			continue
		}
		found = &a
	}
	if found == nil {
		return "", false
	}
	verb := "force-released"
	if found.Kind == lockcore.ActionFence {
		verb = "fenced"
	}
	return fmt.Sprintf("the audit log says it was %s %s at %s", verb, model.ActorWords(found), preciseUTC(found.At)), true
}
