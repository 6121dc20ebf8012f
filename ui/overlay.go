package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// overlay is a layer over the focused screen that takes every key while it
// is open: a dialog (dialogBox), the command bar, the help or the cost
// screen. The App holds at most one, sized like a pane; quitting with
// ctrl+c is the only key that passes it by.
type overlay interface {
	// setSize gives the overlay the body's size.
	setSize(w, h int)
	// update takes a key; done closes the overlay, and cmd is what to run.
	update(a *App, msg tea.KeyMsg) (done bool, cmd tea.Cmd)
	// view is the body; under draws the focused screen, which a dialog is
	// drawn over and the help and cost screens hide.
	view(under func() string) string
	// bottom are the lines below the status bar; nil leaves them to the
	// App (a message, else the screen's keys).
	bottom() []string
}

// show opens o unless an overlay is open already.
func (a *App) show(o overlay) {
	if a.over == nil {
		o.setSize(a.width, max(a.height-3, 1))
		a.over = o
	}
}

// open shows d unless an overlay is open already.
func (a *App) open(d dialog) { a.show(&dialogBox{d: d, keys: a.env.keys, st: a.env.st}) }

// showing is a binding that opens the overlay made by newOverlay.
func showing(newOverlay func(a *App) overlay) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd {
		a.show(newOverlay(a))
		return nil
	}
}

// closing is a binding that closes the overlay it belongs to.
func closing(closed *bool) keyDo {
	return func(*App, tea.KeyMsg) tea.Cmd {
		*closed = true
		return nil
	}
}

// dialogBox is a dialog as an overlay: a box in the middle of the focused
// screen.
type dialogBox struct {
	d    dialog
	keys *keyMap
	st   *styles
	w, h int
}

func (b *dialogBox) setSize(w, h int) { b.w, b.h = w, h }

func (b *dialogBox) update(_ *App, msg tea.KeyMsg) (bool, tea.Cmd) {
	done, cmd := b.d.update(*b.keys, msg)
	if done && cmd == nil {
		// Every dialog ends without a command only when cancelled.
		cmd = func() tea.Msg { return flashMsg{text: "cancelled: nothing was done"} }
	}
	return done, cmd
}

func (b *dialogBox) view(under func() string) string {
	return drawOver(under(), b.d.view(b.st, b.w), b.w, b.h)
}

func (b *dialogBox) bottom() []string { return nil }

// drawOver puts box in the middle of the body, whole lines at a time.
func drawOver(body, box string, w, h int) string {
	lines := strings.Split(block(body, w, h), "\n")
	boxLines := strings.Split(box, "\n")
	top := max((h-len(boxLines))/2, 0)
	for i, l := range boxLines {
		if top+i >= len(lines) {
			break
		}
		left := max((w-width(l))/2, 0)
		lines[top+i] = strings.Repeat(" ", left) + l
	}
	return strings.Join(lines, "\n")
}
