package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch"
)

// without is the lock at path as the watcher would report it once the
// contender at pos went.
func without(t *testing.T, a *App, path string, pos int) watchEventsMsg {
	t.Helper()
	l := *a.env.state.Locks[path]
	l.Participants = slices.Delete(slices.Clone(l.Participants), pos, pos+1)
	return watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: path, Lock: &l}}}
}

// TestDialogsSayTheirNodeWent: a force-release dialog and a fence dialog
// whose node goes while they are open say so, offer nothing, and y
// writes nothing.
func TestDialogsSayTheirNodeWent(t *testing.T) {
	for _, tc := range []struct {
		name, lock, key string
		pos             int
	}{
		{"force-release", "/locks/billing", "D", 0},
		{"fence", "/locks/orphans", "F", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, z, audit := newOperateApp(t)
			send(a, openLockMsg{path: tc.lock})
			press(a, tc.key)
			if openDialog(a) == nil {
				t.Fatalf("no dialog: %q", statusLine(a))
			}
			send(a, without(t, a, tc.lock, tc.pos))
			sc := screen(a)
			if !strings.Contains(sc, "Nothing to do: the node went") || !strings.Contains(sc, "any key closes") {
				t.Fatalf("the dialog:\n%s", sc)
			}
			press(a, "y")
			if openDialog(a) != nil || len(z.writes()) != 0 || audit.Len() != 0 {
				t.Fatalf("a dialog whose node went acted: writes %v, audit %q", z.writes(), audit.String())
			}
		})
	}
}
