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

// The help scrolls by the keys that move every list and scrolled text, as
// far as they move there: a line, half a page, a page, to an end, never
// past either end.
func TestHelpScrollsAsEveryScreenMoves(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "?")
	h, ok := a.over.(*helpOverlay)
	if !ok {
		t.Fatalf("? opened no help: %T", a.over)
	}
	n, room := len(h.lines()), h.room()
	if n < 2*room+2 {
		t.Fatalf("the help's %d lines are too few to scroll by pages of %d", n, room)
	}
	half := room / 2
	for _, c := range []struct {
		key  string
		want int
	}{
		{"k", 0},
		{"j", 1},
		{"ctrl+d", 1 + half},
		{"ctrl+u", 1},
		{"pgdown", 1 + room},
		{"pgdown", min(1+2*room, n-room)},
		{"G", n - room},
		{"j", n - room},
		{"pgup", n - 2*room},
		{"g", 0},
	} {
		press(a, c.key)
		if h.scroll.top != c.want {
			t.Fatalf("after %s the help's first line is %d, want %d (%d lines, %d a page)", c.key, h.scroll.top,
				c.want, n, room)
		}
	}
	if !strings.Contains(screen(a), " lines 1–"+itoa(room)+" of "+itoa(n)) {
		t.Fatalf("the help back at its top does not say so:\n%s", screen(a))
	}
}
