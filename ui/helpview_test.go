package ui

import (
	"regexp"
	"strings"
	"testing"
)

// At 80 columns the help lists every key of the focused screen in full,
// the demo's too: no column is cut to "…".
func TestHelpShowsEveryKeyAt80(t *testing.T) {
	check := func(t *testing.T, a *App) {
		t.Helper()
		press(a, "?")
		h, ok := a.over.(*helpOverlay)
		if !ok {
			t.Fatalf("? opened no help: %T", a.over)
		}
		text := strings.Join(h.lines(), "\n")
		for _, l := range h.lines() {
			if width(l) > 80 {
				t.Errorf("help line wider than 80 cells: %q", l)
			}
		}
		for _, col := range h.keys.columns() {
			for _, b := range col {
				// The key, then its description on the same line.
				re := regexp.MustCompile(regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc))
				if b.Enabled() && !re.MatchString(text) {
					t.Errorf("help lacks %s %s:\n%s", b.Help().Key, b.Help().Desc, text)
				}
			}
		}
		press(a, "esc")
	}
	t.Run("locks", func(t *testing.T) { check(t, newTestApp(t, 80, 24)) })
	t.Run("detail", func(t *testing.T) {
		a := newTestApp(t, 80, 24)
		send(a, openLockMsg{path: "/locks/orders"})
		check(t, a)
	})
	t.Run("demo", func(t *testing.T) {
		a := newDemoApp(t, 80, 24, &fakeDemo{})
		check(t, a)
		press(a, "?")
		golden(t, "demo_help_80x24", a)
	})
}
