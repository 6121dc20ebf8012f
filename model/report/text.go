package report

import (
	"github.com/zklocks/zklocks/model"

	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// WriteText writes the report as compact tables for people: one block per
// lock, its queue in order, then its anomalies and warnings. Every name and
// datum is escaped with Printable.
// Each lock's queue is its own table: its columns are as wide as its
// participants need, and the lines after it (hidden waiters, anomalies,
// warnings) are plain text that never widens them.
func (r Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, p := range r.Partial {
		fmt.Fprintf(ew, "PARTIAL: %s\n", model.Printable(p))
	}
	for i, l := range r.Locks {
		if i > 0 {
			fmt.Fprintln(ew)
		}
		writeLockText(ew, l, r.Links, r.client)
	}
	writeEnded(ew, r.Ended)
	// A member that refuses the words and has no AdminServer is said
	// once, in the Fix with its doctor pointer: the notes it alone
	// explains are not said again before it.
	watchesByFix, linksByFix := r.explainedByFix()
	if r.WatchesNote != "" && !watchesByFix {
		fmt.Fprintf(ew, "\nwatch targets follow each recipe's rule: %s\n", model.Printable(r.WatchesNote))
	}
	if r.LinksNote != "" && !linksByFix {
		fmt.Fprintf(ew, "\nconnections: %s\n", model.Printable(r.LinksNote))
	}
	// The members' lines end without a newline: the next paragraph's
	// blank line follows the last of them.
	fix, end := "\n", ""
	for _, s := range r.Servers {
		if r.Fix != "" && zkwatch.NoWay(s) {
			continue
		}
		if note := zkwatch.WaysNote(s); note != "" && (len(s.Refused) > 0 || s.AdminErr != nil) {
			fmt.Fprintf(ew, "\n%s: %s", model.Printable(s.Addr), model.Printable(note))
			fix, end = "\n\n", "\n"
		}
	}
	switch {
	case watchesByFix:
		fmt.Fprintf(ew, "%swatch targets follow each recipe's rule: %s\n", fix, model.Printable(r.Fix))
	case r.Fix != "":
		fmt.Fprintf(ew, "%s%s\n", fix, model.Printable(r.Fix))
	default:
		fmt.Fprint(ew, end)
	}
	return ew.err
}

// explainedByFix reports whether the Fix alone explains why the watch
// table was not read (a word refused by a member it names, which has no
// AdminServer to ask instead: a member that cannot give the table means
// no table)
// and why connections are not complete (every other member answered
// cons).
func (r Report) explainedByFix() (watches, links bool) {
	if r.Fix == "" {
		return false, false
	}
	links = true
	for _, s := range r.Servers {
		switch {
		case zkwatch.NoWay(s):
			watches = watches || errors.Is(r.WatchesErr, words.ErrFourLetterRefused) && strings.Contains(r.WatchesNote, s.Addr)
		case s.Err != nil || s.Via["cons"] == "":
			links = false
		}
	}
	return watches, links
}

// errWriter keeps the first write error and drops every write after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// client is the CLIENT cell of a session.
func (r Report) client(session int64) string {
	return model.ClientOf(r.Clients, r.ClientsComplete, session).Short()
}

// anyRefused reports whether a member refused a word, so that the notes
// on how members answered were printed.
func (r Report) anyRefused() bool {
	for _, s := range r.Servers {
		if len(s.Refused) > 0 || s.AdminErr != nil {
			return true
		}
	}
	return false
}

func writeLockText(w io.Writer, l lockcore.Lock, links lockcore.SessionLinks, client func(int64) string) {
	fmt.Fprintf(w, "%s  %s  %d holding, %d waiting", model.Printable(l.Path), l.Recipe, l.Holders(), l.Waiters())
	if l.MaxLeases != nil {
		fmt.Fprintf(w, ", max leases %d", *l.MaxLeases)
	} else if l.Recipe == lockcore.RecipeCuratorSemaphore {
		fmt.Fprint(w, ", max leases unknown (not stored in the tree)")
	}
	if l.WatchesGap != "" {
		fmt.Fprintf(w, "  (watches: %s, until the table is read again: %s)\n", l.WatchesSource, model.Printable(l.WatchesGap))
	} else {
		fmt.Fprintf(w, "  (watches: %s)\n", l.WatchesSource)
	}
	for _, a := range l.Assumed {
		fmt.Fprintf(w, "? assumed: %s\n", model.Printable(a))
	}
	writeAppText(w, l.App)
	if l.Recipe == lockcore.RecipeEphemeral && len(l.Participants) == 0 {
		// A plain lock node exists only while it is held.
		free := "free: no node at this path now; a plain lock's holder creates it"
		if l.WatchesSource == lockcore.WatchesFromServer && len(l.HiddenWaiters) == 0 && len(l.Observers) == 0 {
			free += ", and no session watches for it"
		}
		fmt.Fprintln(w, free)
	}
	writeQueueTable(w, &l, client)
	if len(l.HiddenWaiters) > 0 {
		fmt.Fprintf(w, "hidden waiters (sessions watching the node): %s\n", strings.Join(sessions(l.HiddenWaiters), ", "))
	}
	writeObservers(w, l.Observers)
	writeDisconnected(w, l.Participants, links)
	writeLiveness(w, &l, links)
	for _, a := range l.Anomalies {
		fmt.Fprintf(w, "! %s", a.Kind)
		if a.Node != "" {
			fmt.Fprintf(w, "  %s", model.ShortNode(a.Node))
		}
		fmt.Fprintf(w, ": %s\n", model.Printable(a.Detail))
	}
	for _, a := range l.MaybeLongHeld {
		fmt.Fprintf(w, "? possibly %s  %s: %s\n", a.Kind, model.ShortNode(a.Node), model.Printable(a.Detail))
	}
	for _, warn := range l.Warnings {
		fmt.Fprintf(w, "! warning: %s\n", model.Printable(warn))
	}
}

// writeDisconnected says, of each session connected to no member, which
// contenders it owns and when it expires.
func writeDisconnected(w io.Writer, ps []lockcore.Participant, links lockcore.SessionLinks) {
	var order []int64
	owned := map[int64][]string{}
	for _, p := range ps {
		if links.Of(p.Session).State != lockcore.LinkDisconnected {
			continue
		}
		if owned[p.Session] == nil {
			order = append(order, p.Session)
		}
		owned[p.Session] = append(owned[p.Session], fmt.Sprintf("#%d %s", p.Position, p.Role))
	}
	for _, s := range order {
		last, k := "", links.Of(s)
		if k.LastClient != "" {
			name := ""
			if k.LastName != "" {
				name = " (" + model.Printable(k.LastName) + ")"
			}
			last = "; its client was last seen as " + model.Printable(k.LastClient) + name + " via " + model.Printable(k.LastServer) +
				" at " + k.LastSeen.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(w, "session %s (%s): disconnected, %s%s\n", model.SessionText(s), strings.Join(owned[s], ", "),
			k.ExpiresText(k.ExpiresWithin), last)
	}
}

// writeLiveness says, of each frozen contender and each hung holder, what
// its member's counters tell and the fix it calls for; a crashed one is
// writeDisconnected's. A silent session's time left counts from its
// member's answer: the read is a moment's.
func writeLiveness(w io.Writer, l *lockcore.Lock, links lockcore.SessionLinks) {
	for _, p := range l.Participants {
		k := links.Of(p.Session)
		live := k.Liveness()
		if live != lockcore.LiveSilent && !(live == lockcore.LiveTalking && p.Role == lockcore.RoleHolder && model.LongHeld(l, p)) {
			continue
		}
		fmt.Fprintf(w, "session %s (#%d %s): %s\n", model.SessionText(p.Session), p.Position, p.Role, model.LivenessText(l, p, k, k.Silent.At))
	}
}

// writeEnded lists the endings an event log told, with what an expired
// holder's client may still believe and who holds now.
func writeEnded(w io.Writer, ended []model.Ended) {
	if len(ended) == 0 {
		return
	}
	fmt.Fprintln(w, "\nended:")
	for _, e := range ended {
		h := e.Entry
		fmt.Fprintf(w, "  %s  %s  %s  session %s  token 0x%x: %s", h.At.UTC().Format(time.RFC3339), model.Printable(h.Lock), model.ShortNode(h.Node),
			model.SessionText(h.Session), h.Token, model.EndingText(h))
		if why := model.EndingWhy(h); why != "" {
			fmt.Fprintf(w, " (%s)", why)
		}
		fmt.Fprintln(w)
		switch {
		case e.NotTold && h.Change == model.Released:
			fmt.Fprintf(w, "    not told: may believe it holds; %s\n", model.NewHoldersText(e.NewHolders))
		case e.NotTold:
			fmt.Fprintln(w, "    not told: may believe it still waits")
		}
	}
}

// writeQueueTable writes l's participants as a table with columns aligned
// among themselves only, saying where the fallback rule read the lock.
func writeQueueTable(out io.Writer, l *lockcore.Lock, client func(int64) string) {
	ps, assumed := l.Participants, len(l.Assumed) > 0
	if len(ps) == 0 {
		return
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	who := false
	for _, p := range ps {
		who = who || p.Identity != ""
	}
	header := "POS\tROLE\tMODE\tSESSION\tCLIENT\tAGE\tHELD\tTOKEN\tNODE\tWAITS ON"
	if who {
		header += "\tWHO"
	}
	fmt.Fprintln(w, header)
	for _, p := range ps {
		waits := ""
		switch {
		case p.Watches != nil:
			waits = "→ " + model.WatchedText(p.Watches)
		case p.WatchesUnknown:
			waits = "(unknown)"
		case p.Role == lockcore.RoleWaiter && assumed:
			// A children watch, which the fallback rule cannot rule
			// out, is never listed.
			waits = "(no node seen)"
		case p.Role == lockcore.RoleWaiter:
			waits = "(watches nothing)"
		}
		held := ""
		if p.Role == lockcore.RoleHolder {
			held = model.HoldShort(p.Hold)
		}
		age, token := model.Duration(p.Age), fmt.Sprintf("0x%x (%d)", p.Token, p.Token)
		if p.Pending {
			age, token = model.PendingMark, model.PendingMark
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", p.Position, p.Role, p.Mode, model.SessionText(p.Session),
			client(p.Session), age, held, token, model.ShortNode(p.Node), waits)
		if who {
			fmt.Fprintf(w, "\t%s", model.Printable(p.Identity))
		}
		fmt.Fprintln(w)
	}
	w.Flush() // errors reach out's own record (errWriter)
	for _, p := range ps {
		if p.Role == lockcore.RoleHolder && !p.Hold.Exact() && !p.Pending {
			fmt.Fprintln(out, "HELD ≤N: held for at most N, the node's age; when it got the lock was not seen")
			break
		}
	}
	if n := model.PendingIn(l); n > 0 {
		fmt.Fprintf(out, "%s: %d of these nodes are listed but %s: their age, hold, token and data are unknown until read\n",
			model.PendingMark, n, model.NotRead)
	}
}

// writeObservers lists the sessions watching a plain lock's node that are
// not counted as waiters, each with why; a judged one says it is judged.
func writeObservers(w io.Writer, obs []lockcore.Observer) {
	if len(obs) == 0 {
		return
	}
	fmt.Fprintf(w, "observers: %d (watching the node, not counted as waiters)\n", len(obs))
	for _, o := range obs {
		how := "judged from its watches: "
		if o.Certain {
			how = ""
		}
		fmt.Fprintf(w, "  %s  %s%s\n", lockcore.SessionHex(o.Session), how, model.Printable(o.Evidence))
	}
}
