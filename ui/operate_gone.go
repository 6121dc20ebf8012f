package ui

import (
	"cmp"
	"errors"
	"path"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// An operator who comes second: the node a dialog asks about may go while
// the dialog is open (another operator, its client, its session's end),
// and an action confirmed a moment too late is refused. Either way the
// operator is told who or what ended it and when, as far as the event log
// knows.

// target is a node a dialog would act on, in the lock it was shown in.
type target struct {
	lock   string
	expect lockclient.Expect
}

// goneWatcher is a dialog whose nodes can go while it is open: the App
// tells it after each batch of the watcher's events.
type goneWatcher interface {
	checkGone(s *model.State, clock func(time.Time) string)
}

// goneText says, of the first of ts no longer in its lock, that it went
// and, as far as the log knows, who or what ended it and when; "" while
// every one is there.
func goneText(ts []target, s *model.State, clock func(time.Time) string) string {
	for _, t := range ts {
		if s.Present(t.lock, t.expect.Path, t.expect.Czxid) {
			continue
		}
		text, _ := s.GoneText(t.expect, clock)
		return text
	}
	return ""
}

// checkGone notes a node gone, and says better how it ended as the log
// learns it (a members' answer may settle an ending first not known).
func (d *confirmDialog) checkGone(s *model.State, clock func(time.Time) string) {
	d.gone = cmp.Or(goneText(d.targets, s, clock), d.gone)
}

func (d *forceDialog) checkGone(s *model.State, clock func(time.Time) string) {
	d.confirm.checkGone(s, clock)
}

func (d *fenceDialog) checkGone(s *model.State, clock func(time.Time) string) {
	ts := make([]target, len(d.cands))
	for i, c := range d.cands {
		ts[i] = target{lock: d.path, expect: lockclient.ExpectParticipant(c.Participant)}
	}
	d.gone = cmp.Or(goneText(ts, s, clock), d.gone)
}

// goneView is a dialog whose node went: it says so and offers nothing.
func goneView(st *styles, w int, gone string) string {
	c := confirmDialog{title: "Nothing to do: the node went", lines: []string{model.Printable(gone) + ".",
		"It went while this dialog was open: nothing is left to do here."}, footer: "any key closes"}
	return c.view(st, w)
}

// goneClosed is what closing a dialog whose node went says: nothing was
// done, and why.
func goneClosed(string) tea.Cmd {
	return func() tea.Msg {
		return flashMsg{text: "nothing was done: the node had already gone (the Events screen says how)"}
	}
}

// preciseClock formats a time to the millisecond: two operators' actions
// are often that close.
func (e *env) preciseClock(t time.Time) string { return t.In(e.loc).Format("15:04:05.000") }

// checkDialog tells the open dialog, if it acts on nodes, what the last
// events showed.
func (a *App) checkDialog() {
	if b, ok := a.over.(*dialogBox); ok {
		if d, ok := b.d.(goneWatcher); ok {
			d.checkGone(a.env.state, a.env.preciseClock)
		}
	}
}

// refusedGone is the status line's account of an action refused because
// its node had gone: who or what ended it and when, once the event log
// knows. known is false while the watcher has not reported the node's end
// yet; the operator then explains it when it does (explainRefusals).
func (op *operator) refusedGone(msg actionDoneMsg) (text string, known bool) {
	// Two status lines at 80 columns: the node by its name alone (the
	// lock is the one on screen), and the action not done.
	text = "not " + pastTense(msg.action) + ": " + model.ShortNode(path.Base(msg.expect.Path))
	end, logged := op.env.state.EndingOf(msg.expect.Path, msg.expect.Czxid)
	if !logged {
		return text + " had gone, taken first; how it ended is said once the watcher sees it go", false
	}
	return text + " " + end.Words(op.env.preciseClock), end.EndedBy != model.EndedByUnknown
}

// pastTense is an action's name as done: "force-released", "revoked".
func pastTense(action string) string {
	switch action {
	case "revoke":
		return "revoked"
	case "fence":
		return "fenced"
	}
	return action + "d"
}

// explainRefusals says how the nodes of refused actions ended, as the
// event log learns it: once logged, and again when a members' answer
// settles what ended them.
func (op *operator) explainRefusals() {
	left := op.unexplained[:0]
	for _, u := range op.unexplained {
		text, settled := op.refusedGone(u.msg)
		if text != u.said {
			op.host.say(text, true)
			u.said = text
		}
		if !settled {
			left = append(left, u)
		}
	}
	op.unexplained = left
}

// unexplained is a refusal whose node's end is not settled yet, and what
// was last said of it.
type unexplained struct {
	msg  actionDoneMsg
	said string
}

// actionDone says how an action ended.
func (op *operator) actionDone(msg actionDoneMsg) {
	if errors.Is(msg.err, lockclient.ErrNodeGone) && msg.expect.Path != "" {
		text, settled := op.refusedGone(msg)
		if !settled && len(op.unexplained) < maxUnexplained {
			op.unexplained = append(op.unexplained, unexplained{msg: msg, said: text})
		}
		op.host.say(text, true)
		return
	}
	op.host.say(msg.text())
}

// maxUnexplained bounds the refusals waiting for their node's end to be
// logged: one whose lock is not watched never is.
const maxUnexplained = 20
