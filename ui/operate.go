package ui

import (
	"cmp"
	"context"
	"errors"
	"path"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// Operations are the operator's writes to ZooKeeper, through
// model.Actions: acquiring and releasing a lock of our own (operate_own.go),
// and force-release, revoke and fence on other sessions' nodes. Those three
// act only after a dialog that an explicit y confirms (operate_dialog.go),
// and only on the node exactly as the dialog showed it (lockclient.Expect):
// a node that changed meanwhile is never touched.

// update handles the operations' messages; sel is what the screen shows
// as they arrive.
func (op *operator) update(msg tea.Msg, sel selection) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case acquireChosenMsg:
		cmd = op.startAcquire(msg.spec, sel)
	case acquireProgressMsg:
		cmd = op.acquireProgress(msg)
	case acquireDoneMsg:
		cmd = op.acquireDone(msg)
	case ownLostMsg:
		op.ownLost(msg)
	case ownRevokedMsg:
		cmd = op.ownRevoked(msg)
	case ownReleasedMsg:
		op.ownReleased(msg)
	case actionDoneMsg:
		op.actionDone(msg)
		if msg.action == "revoke" && msg.err == nil && msg.released == nil {
			cmd = awaitRevoked(op.actions, msg.expect, cmp.Or(op.revokeWait, defaultRevokeWait))
		}
	}
	return cmd
}

// canAct reports whether an operation may go on, and says why not:
// read-only, or no actions to act with.
func (op *operator) canAct(what string) bool {
	if !op.guardWrite(what) {
		return false
	}
	if op.actions == nil {
		op.host.say(what+" is unavailable: this view has no connection to act with", true)
		return false
	}
	return true
}

// shownParticipant returns the contender selected in the lock detail, as
// shown, when the operation may go on (canAct) and the contender's node
// has been read (read); otherwise it says why not.
func (op *operator) shownParticipant(what string, sel selection) (lockcore.Participant, bool) {
	if !op.canAct(what) {
		return lockcore.Participant{}, false
	}
	if sel.screen != focusDetail {
		op.host.say(what+": open a lock (enter) and select a contender first", true)
		return lockcore.Participant{}, false
	}
	if sel.participant == nil {
		op.host.say(what+": this lock has no contender", true)
		return lockcore.Participant{}, false
	}
	if !op.read(what, *sel.participant) {
		return lockcore.Participant{}, false
	}
	return *sel.participant, true
}

func (op *operator) askForceRelease(sel selection) tea.Cmd {
	q, ok := op.shownParticipant("force-release", sel)
	if !ok {
		return nil
	}
	e := lockclient.ExpectParticipant(q)
	told := "Its session is not told: if its client is alive, it goes on as if its node were still there " +
		"(a holder as if it held the lock) while the next waiter is let in."
	if q.Session == 0 {
		told = "No session owns it, so no client is told or affected: the queue moves on."
	}
	lines := append(op.describe(q, sel.lock), told,
		"Deleted only if it is still this node (same czxid, owner and version). Audited.")
	d := &forceDialog{confirm: confirmDialog{title: "Force-release: delete this contender's node?", lines: lines,
		yes: forceRelease(op.actions, e), targets: []target{{sel.lockPath, e}}}}
	if lockcore.CheckRevocable(path.Base(q.Path), q.Session) == nil {
		d.revoke = revoke(op.actions, e)
		d.confirm.lines = append(d.confirm.lines, "A Curator lock: v asks its client to release instead "+
			"(writes __REVOKE__; only a client that made its lock revocable acts on it).")
		d.confirm.footer = "y deletes the node · v revokes instead · any other key (enter, esc) cancels"
	}
	op.host.open(d)
	return readAccess(op.actions, lockcore.ActionForceRelease, e.Path)
}

func (op *operator) askRevoke(sel selection) tea.Cmd {
	q, ok := op.shownParticipant("revoke", sel)
	if !ok {
		return nil
	}
	if err := lockcore.CheckRevocable(path.Base(q.Path), q.Session); err != nil {
		op.host.say("revoke: "+err.Error()+" (D force-releases)", true)
		return nil
	}
	lines := append(op.describe(q, sel.lock), "Writes __REVOKE__ into its node, version-checked against what is shown. "+
		"Only a Curator client that made its lock revocable releases; any other ignores it. Nothing is deleted. Audited.")
	e := lockclient.ExpectParticipant(q)
	op.host.open(&confirmDialog{title: "Revoke: ask this contender's client to release?", lines: lines,
		yes: revoke(op.actions, e), targets: []target{{sel.lockPath, e}}})
	return readAccess(op.actions, lockcore.ActionRevoke, e.Path)
}

func (op *operator) askFence(sel selection) tea.Cmd {
	const what = "fence"
	if !op.canAct(what) {
		return nil
	}
	l := sel.lock
	if sel.screen != focusDetail || l == nil {
		op.host.say(what+": open a lock (enter) first", true)
		return nil
	}
	cands := lockcore.FenceCandidates(*l)
	for _, c := range cands {
		if !op.read(what, c.Participant) {
			return nil
		}
	}
	if len(cands) == 0 {
		op.host.say("fence: nothing to fence in "+l.Path+": no persistent contender, self-wait orphan or duplicated session", false)
		return nil
	}
	op.host.open(newFenceDialog(l.Path, cands, op.actions, op.env.context))
	// The candidates are the lock's contenders, under one parent: its ACL
	// decides for all of them.
	return readAccess(op.actions, lockcore.ActionFence, cands[0].Participant.Path)
}

// read reports whether q's node is read, and says why not: acting needs
// its token and version, which a contender not read yet lacks.
func (op *operator) read(what string, q lockcore.Participant) bool {
	if err := model.CheckRead(q); err != nil {
		op.host.say(what+": "+model.Printable(err.Error()), true)
		return false
	}
	return true
}

// describe is what an operator needs to know of a contender before acting
// on it: node, session, client, role and age, token and version; l is
// the lock q is in.
func (op *operator) describe(q lockcore.Participant, l *lockcore.Lock) []string {
	owner := model.SessionText(q.Session)
	age := op.env.ageText(l, &q)
	held := "waiting  " + modeText(q.Mode) + " #" + itoa(q.Position) + " for " + age + " (server clock)"
	if q.Role == lockcore.RoleHolder {
		held = "holding  " + modeText(q.Mode) + " #" + itoa(q.Position) + ", " + model.HoldText(op.env.held(l, q.Hold), age)
	}
	version := itoa(int(q.Version))
	if q.Pending {
		version = model.NotRead
	}
	return []string{
		model.Printable(q.Path),
		"session  " + owner,
		"client   " + op.env.client(q.Session).String(),
		held,
		"token    " + tokenText(&q, false) + " · version " + version,
	}
}

// actionDoneMsg says how a force-release, revoke or fence ended.
type actionDoneMsg struct {
	action string   // "force-release", "revoke" or "fence"
	nodes  []string // the nodes acted on, as shown
	err    error
	// expect is the node acted on (force-release, revoke). A revoke is a
	// request: first it says so (released nil), then, after waiting up
	// to revokeWait, whether the node went.
	expect   lockclient.Expect
	released *bool
	waited   time.Duration
}

// defaultRevokeWait bounds the wait for a revoked holder to release: a
// revocable Curator holder hears the request at once, as a watch
// notification.
const defaultRevokeWait = 5 * time.Second

// actionTimeout bounds a confirmed force-release, revoke or fence.
const actionTimeout = 15 * time.Second

func forceRelease(act *model.Actions, e lockclient.Expect) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		return actionDoneMsg{action: "force-release", nodes: []string{e.Path}, err: act.ForceRelease(ctx, e), expect: e}
	}
}

func revoke(act *model.Actions, e lockclient.Expect) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		return actionDoneMsg{action: "revoke", nodes: []string{e.Path}, err: act.Revoke(ctx, e), expect: e}
	}
}

// awaitRevoked waits up to wait for the node a revoke asked to go.
func awaitRevoked(act *model.Actions, e lockclient.Expect, wait time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		released, err := act.AwaitRelease(ctx, e)
		return actionDoneMsg{action: "revoke", nodes: []string{e.Path}, err: err, expect: e, released: &released, waited: wait}
	}
}

// fence deletes es in one transaction.
func fence(act *model.Actions, es []lockclient.Expect) tea.Cmd {
	nodes := make([]string, len(es))
	for i, e := range es {
		nodes[i] = e.Path
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		return actionDoneMsg{action: "fence", nodes: nodes, err: act.Fence(ctx, es)}
	}
}

// text is the status line's account of an action, and whether it is bad
// news.
func (m actionDoneMsg) text() (string, bool) {
	subject := count(len(m.nodes), "node", "nodes")
	if len(m.nodes) == 1 {
		subject = model.ShortNode(m.nodes[0])
	}
	switch {
	case errAwaiting(m.err):
		return m.action + " of " + subject + " requested: it " + m.err.Error() + " (another operator: :approve)", false
	case m.err == nil && m.action == "force-release":
		return "force-released " + subject + ": its session was not told", false
	case m.err == nil && m.action == "revoke" && m.released == nil:
		return "revoke requested from " + subject + " (__REVOKE__ written); waiting a few seconds for the release", false
	case m.err == nil && m.action == "revoke" && *m.released:
		return "revoke: " + subject + " released", false
	case m.err == nil && m.action == "revoke":
		return "revoke: " + subject + " still held after " + model.Duration(m.waited) +
			": its client ignored the request (not made revocable?); D force-releases", true
	case m.action == "revoke" && m.released != nil:
		return "revoke requested; whether " + subject + " was released cannot be told: " + m.err.Error(), true
	case m.err == nil:
		return "fenced " + subject + " in one transaction", false
	case errors.Is(m.err, model.ErrAudit):
		return m.action + " done on " + subject + ", but " + m.err.Error() + ": record it by hand", true
	case errors.Is(m.err, model.ErrReadOnly):
		return m.err.Error(), true
	case errors.Is(m.err, lockclient.ErrNodeChanged), errors.Is(m.err, lockclient.ErrNodeGone):
		return m.action + " refused, nothing was changed: " + m.err.Error() + " (not the node that was shown)", true
	}
	return m.action + " failed: " + m.err.Error() + " (read the lock again: a lost reply may hide what went through)", true
}
