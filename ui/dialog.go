package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// confirmDialog asks before an action that changes ZooKeeper. Only an
// explicit y confirms; Enter, Esc and every other key cancel, so that a key
// pressed out of habit at 3 a.m. does nothing. The operations that will use
// it (acquire, release, fence) call App.guardWrite first.
type confirmDialog struct {
	title string
	// lines say exactly what will happen, already escaped.
	lines []string
	// yes runs when confirmed.
	yes tea.Cmd
}

// ask opens a dialog unless one is open already.
func (a *App) ask(d confirmDialog) {
	if a.dialog == nil {
		a.dialog = &d
	}
}

// update handles a key; done says the dialog closes, and cmd is the
// confirmed action, or nil.
func (d *confirmDialog) update(k keyMap, msg tea.KeyMsg) (done bool, cmd tea.Cmd) {
	if key.Matches(msg, k.Yes) {
		return true, d.yes
	}
	return true, nil
}

func (d *confirmDialog) view(st *styles, w int) string {
	inner := min(max(w-8, 20), 72)
	var lines []string
	lines = append(lines, st.danger.s(fit(d.title, inner)))
	for _, l := range d.lines {
		for _, part := range wrap(l, inner, "  ") {
			lines = append(lines, fit(part, inner))
		}
	}
	lines = append(lines, "", fit("y confirms · any other key (enter, esc) cancels", inner))
	return st.dialog.Render(strings.Join(lines, "\n"))
}
