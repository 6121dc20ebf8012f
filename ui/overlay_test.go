package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestOverlayFollowsResize: an open overlay is sized like the panes, so a
// resize lays it out again: the help's page, a dialog's place.
func TestOverlayFollowsResize(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "?")
	if !strings.Contains(screen(a), "lines 1–20 of") {
		t.Fatalf("the help at 80×24 has no scroll footer:\n%s", screen(a))
	}
	send(a, tea.WindowSizeMsg{Width: 120, Height: 90})
	if sc := screen(a); strings.Contains(sc, "lines 1–") || !helpOpen(a) {
		t.Fatalf("the help at 120×90 still pages:\n%s", sc)
	}
	press(a, "esc")

	a.open(&confirmDialog{title: "release?"})
	send(a, tea.WindowSizeMsg{Width: 80, Height: 24})
	left := func() int {
		for _, l := range strings.Split(screen(a), "\n") {
			if i := strings.Index(l, "┌"); i >= 0 {
				return len([]rune(l[:i]))
			}
		}
		return -1
	}
	at80 := left()
	send(a, tea.WindowSizeMsg{Width: 120, Height: 40})
	if at120 := left(); at80 < 0 || at120 != at80+20 {
		t.Fatalf("the dialog's left edge: %d at 80 columns, %d at 120; want it 20 further right", at80, at120)
	}
}

// TestOverlayTakesEveryKey: while an overlay is open the screen's keys do
// nothing; only its own keys and ctrl+c act.
func TestOverlayTakesEveryKey(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "c", "2", "/", "j")
	if !costOpen(a) || a.focused() != focusLocks || a.locks.filter.typing {
		t.Fatalf("keys reached the screen under the cost screen: focus %d, filter %v", a.focused(), a.locks.filter.typing)
	}
	if !press(a, "ctrl+c") {
		t.Fatal("ctrl+c did not quit from the cost screen")
	}
	press(a, "esc", ":")
	if press(a, "q") || !commandOpen(a) {
		t.Fatal("q typed into the command bar quit or closed it")
	}
}
