package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// accessTimeout bounds reading whether the session may act: the ACL and
// who the session is.
const accessTimeout = 5 * time.Second

// accessReadMsg: what the ACL of a dialog's node says of the session. A
// refusal makes the dialog offer nothing: the action would be refused
// before it is tried anyway.
type accessReadMsg struct {
	node    string
	summary string
	refusal error
}

// readAccess reads, for the dialog just opened on node, whether the
// session may do kind there; nil when the actions check nothing.
func readAccess(act *model.Actions, kind lockcore.ActionKind, node string) tea.Cmd {
	if act == nil || act.Access == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), accessTimeout)
		defer cancel()
		summary, refusal := act.Access(ctx, kind, node)
		return accessReadMsg{node: node, summary: summary, refusal: refusal}
	}
}

// accessShower is a dialog that shows what the ACL says.
type accessShower interface {
	showAccess(msg accessReadMsg)
}

// showAccess hands the ACL's answer to the open dialog, if it is the one
// asked for.
func (a *App) showAccess(msg accessReadMsg) {
	if b, ok := a.over.(*dialogBox); ok {
		if d, ok := b.d.(accessShower); ok {
			d.showAccess(msg)
		}
	}
}

func (d *confirmDialog) showAccess(msg accessReadMsg) {
	for _, t := range d.targets {
		if t.expect.Path != msg.node {
			continue
		}
		d.takeAccess(msg)
		return
	}
}

func (d *forceDialog) showAccess(msg accessReadMsg) { d.confirm.showAccess(msg) }

func (d *fenceDialog) showAccess(msg accessReadMsg) {
	if len(d.cands) > 0 && d.cands[0].Participant.Path == msg.node {
		d.takeAccess(msg)
	}
}

func (d *acquireDialog) showAccess(msg accessReadMsg) {
	if d.path == msg.node {
		d.takeAccess(msg)
	}
}

// deniedView is a dialog whose action the ACL does not allow: it says so
// and offers nothing.
func deniedView(st *styles, w int, denied string) string {
	c := confirmDialog{title: "Not permitted: nothing would be done", lines: []string{model.Printable(denied) + "."},
		footer: "any key closes"}
	return c.view(st, w)
}

// deniedClosed is what closing a dialog the ACL refuses says.
func deniedClosed(denied string) tea.Cmd {
	return func() tea.Msg { return flashMsg{text: "nothing was done: " + denied, isErr: true} }
}
