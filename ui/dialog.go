package ui

import (
	"strings"

	"github.com/zklocks/zklocks/model"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// dialog is a box over the focused pane that takes every key until it
// closes: update says whether it is done, and returns what to run.
type dialog interface {
	// update takes a key; a dialog that is done without a command was
	// cancelled.
	update(k keyMap, msg tea.KeyMsg) (done bool, cmd tea.Cmd)
	view(st *styles, w int) string
}

// confirmDialog asks before an action that changes ZooKeeper. Only an
// explicit y confirms; Enter, Esc and every other key cancel, so that a key
// pressed out of habit at 3 a.m. does nothing. The operations that use it
// (force-release, revoke, fence) call operator.canAct first.
type confirmDialog struct {
	title string
	// lines say exactly what will happen, already escaped.
	lines []string
	// yes runs when confirmed.
	yes tea.Cmd
	// footer replaces the line that says which key does what.
	footer string
	// targets are the nodes yes acts on.
	targets []target
	learnt
}

// learnt is what a dialog that acts on nodes learns while it is open.
type learnt struct {
	// gone, once a node it acts on went, says so, and the dialog offers
	// nothing.
	gone string
	// access says who may do it, once the ACL has been read (see
	// readAccess); denied, that the ACL grants it to no identity of the
	// session, and the dialog offers nothing.
	access, denied string
}

// takeAccess takes what the ACL says.
func (l *learnt) takeAccess(msg accessReadMsg) {
	if msg.refusal != nil {
		l.denied = msg.refusal.Error()
		return
	}
	l.access = msg.summary
}

// void reports whether the dialog offers nothing (its node went, or the
// ACL refuses), with what closing it then says.
func (l *learnt) void() (closed tea.Cmd, ok bool) {
	switch {
	case l.gone != "":
		return goneClosed(l.gone), true
	case l.denied != "":
		return deniedClosed(l.denied), true
	}
	return nil, false
}

// voidView is the box of a dialog that offers nothing, and whether it
// offers nothing.
func (l *learnt) voidView(st *styles, w int) (string, bool) {
	switch {
	case l.gone != "":
		return goneView(st, w, l.gone), true
	case l.denied != "":
		return deniedView(st, w, l.denied), true
	}
	return "", false
}

// update handles a key; done says the dialog closes, and cmd is the
// confirmed action, or nil.
func (d *confirmDialog) update(k keyMap, msg tea.KeyMsg) (done bool, cmd tea.Cmd) {
	if closed, void := d.void(); void {
		return true, closed
	}
	if key.Matches(msg, k.Yes) {
		return true, d.yes
	}
	return true, nil
}

// dialogWidth is the width of a dialog's text on a screen w cells wide.
func dialogWidth(w int) int { return min(max(w-8, 20), 72) }

func (d *confirmDialog) view(st *styles, w int) string {
	if box, void := d.voidView(st, w); void {
		return box
	}
	inner := dialogWidth(w)
	var lines []string
	lines = append(lines, st.danger.s(fit(d.title, inner)))
	shown := d.lines
	if d.access != "" {
		shown = append(append([]string(nil), shown...), model.Printable(d.access)+".")
	}
	for _, l := range shown {
		for _, part := range wrap(l, inner, "  ") {
			lines = append(lines, fit(part, inner))
		}
	}
	footer := d.footer
	if footer == "" {
		footer = "y confirms · any other key (enter, esc) cancels"
	}
	lines = append(lines, "")
	for _, part := range wrap(footer, inner, "") {
		lines = append(lines, fit(part, inner))
	}
	return st.dialog.Render(strings.Join(lines, "\n"))
}
