package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestOpenAtStart(t *testing.T) {
	for _, tt := range []struct{ name, open, lock, node string }{
		{"lock", "/locks/billing", "/locks/billing", ""},
		{"trailing slash", "/locks/billing/", "/locks/billing", ""},
		{"contender", "", "/locks/orders", ""}, // filled below
	} {
		t.Run(tt.name, func(t *testing.T) {
			open, node := tt.open, tt.node
			if open == "" {
				node = fixtureState().Locks["/locks/orders"].Participants[3].Path
				open = node
			}
			a := newTestApp(t, 80, 24, func(o *Options) { o.Open = open })
			path, _, _ := a.detail.shown()
			if a.focused() != focusDetail || path != tt.lock {
				t.Fatalf("focused %v on %q, want the detail of %s", a.focused(), path, tt.lock)
			}
			if q := a.detail.selected(); node != "" && (q == nil || q.Path != node) {
				t.Fatalf("selected %+v, want %s", q, node)
			}
		})
	}
}

// TestOpenAtStartWaitsForTheLock: before the first read the path is not
// known; the detail opens when the lock arrives, and a path that is no
// lock once everything is read is said so.
func TestOpenAtStartWaitsForTheLock(t *testing.T) {
	a := newTestApp(t, 80, 24, func(o *Options) { o.State = model.NewState(); o.Open = "/locks/orders" })
	if a.focused() != focusLocks {
		t.Fatal("opened a lock not read yet")
	}
	l := fixtureState().Locks["/locks/orders"]
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}}})
	if path, _, _ := a.detail.shown(); a.focused() != focusDetail || path != "/locks/orders" {
		t.Fatalf("not opened once read: %v %q", a.focused(), path)
	}

	b := newTestApp(t, 80, 24, func(o *Options) { o.State = model.NewState(); o.Open = "/jobs/nothing" })
	send(b, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}}}})
	if b.focused() != focusTree || !strings.Contains(screen(b), "/jobs/nothing: no lock there") {
		t.Fatalf("no word on a path that is no lock:\n%s", screen(b))
	}
}

func TestCommandBar(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, ":", "/", "l", "o", "c", "k", "s", "/", "b", "tab")
	if !strings.Contains(screen(a), ":/locks/billing") {
		t.Fatalf("tab did not complete the only lock:\n%s", screen(a))
	}
	press(a, "enter")
	if path, _, _ := a.detail.shown(); a.focused() != focusDetail || path != "/locks/billing" {
		t.Fatalf("enter did not open the lock: %v %q", a.focused(), path)
	}
	press(a, ":", "s", "e", "enter")
	if a.focused() != focusSessions {
		t.Fatalf(":se went to %v", a.focused())
	}
	// While the bar is open, keys are typed, not bound: q does not quit.
	if quit := press(a, ":", "q", "x"); quit || !commandOpen(a) {
		t.Fatal("a key typed in the command bar acted")
	}
	press(a, "enter")
	if !strings.Contains(screen(a), ":qx is neither a path") {
		t.Fatalf("no word on a bad command:\n%s", screen(a))
	}
	// A path that is no lock opens the tree there.
	press(a, ":", "/", "n", "o", "enter")
	if a.focused() != focusTree || !strings.Contains(screen(a), "/no ✗ /no: zk: node does not exist") {
		t.Fatalf("bad path:\n%s", screen(a))
	}
	press(a, "esc")
	press(a, ":", "l", "esc")
	if commandOpen(a) || a.focused() != focusSessions {
		t.Fatal("esc did not close the command bar")
	}
	_, cmd := a.Update(keyMsg(":"))
	if cmd != nil {
		t.Fatal(": returned a command")
	}
	press(a, "q", "u", "i", "t")
	if _, cmd := a.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd == nil {
		t.Fatal(":quit does not quit")
	}
}

func TestGoldenCommandBar(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			press(a, ":", "/", "l", "o", "c", "k", "s", "/", "o")
			golden(t, "command_bar_"+sz.name, a)
		})
	}
}
