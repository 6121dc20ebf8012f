package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// pendingTree is a Curator mutex as the first sync of a big cluster lists
// it: every contender's name and owner known (from the servers' dump),
// the ones in pending not read yet.
func pendingTree(path string, pending ...int) *tree {
	b := newTree(path)
	b.kid(curator("lock-", 160, 4), sid(160), 9*time.Minute, "10.0.6.60")
	b.kid(curator("lock-", 161, 5), sid(161), 4*time.Minute, "10.0.6.61")
	b.kid(curator("lock-", 162, 6), sid(162), time.Minute, "10.0.6.62")
	for _, i := range pending {
		c := &b.t.Children[i]
		*c = lockcore.Node{Name: c.Name, Stat: zk.Stat{EphemeralOwner: c.Stat.EphemeralOwner}, Pending: true}
	}
	return b
}

// pendingLock is pendingTree analysed, with the long-held check on.
func pendingLock(path string, pending ...int) *lockcore.Lock {
	return pendingTree(path, pending...).analyze(nil, longHeld)
}

func TestGoldenPendingContenders(t *testing.T) {
	a := newTestApp(t, 80, 24)
	addLock(a, pendingLock("/locks/pending", 0, 2))
	golden(t, "locks_pending_80x24", a)
	send(a, openLockMsg{path: "/locks/pending", node: participant(t, a, "/locks/pending", 0).Path})
	golden(t, "detail_pending_80x24", a)
	send(a, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "detail_pending_120x40", a)
}

func TestPendingShowsNoZerosAnywhere(t *testing.T) {
	a := newTestApp(t, 120, 40)
	addLock(a, pendingLock("/locks/pending", 0, 2))
	sc := screen(a)
	if !strings.Contains(sc, "⋯ 2 contenders not read yet") {
		t.Fatalf("status bar does not say what is pending:\n%s", sc)
	}
	send(a, openLockMsg{path: "/locks/pending", node: participant(t, a, "/locks/pending", 0).Path})
	sc = screen(a)
	for _, bad := range []string{"0x0 (0)", "56 years", "20409d", "held for 0s", "waiting for 0s"} {
		if strings.Contains(sc, bad) {
			t.Errorf("the detail shows %q for a contender not read:\n%s", bad, sc)
		}
	}
	if !lineHas(sc, "token not read yet") || !strings.Contains(sc, "not read yet") {
		t.Errorf("the detail does not say the holder is not read yet:\n%s", sc)
	}
	press(a, "2")
	if sc := screen(a); !lineHas(sc, "/locks/pending", "…") {
		t.Errorf("the sessions screen does not mark the pending holder:\n%s", sc)
	}
	// Read: the count goes, and with it the status bar's words.
	addLock(a, pendingLock("/locks/pending"))
	if sc := screen(a); strings.Contains(sc, "not read yet") {
		t.Errorf("all read, yet the screen says something is not read:\n%s", sc)
	}
}

func TestPendingLockSortsAfterKnownHolds(t *testing.T) {
	a := newTestApp(t, 120, 40)
	addLock(a, pendingLock("/locks/pending", 0, 1, 2))
	for range lockOrders {
		if lockOrders[a.locks.order] == "age" {
			break
		}
		press(a, "s")
	}
	var known, pending, empty int
	for i, r := range a.locks.rows {
		switch {
		case r.path == "/locks/pending":
			pending = i
		case r.lock != nil && r.holders == 0 && empty == 0:
			empty = i
		case r.lock != nil && r.holders > 0:
			known = max(known, i)
		}
	}
	if !(known < pending && (empty == 0 || pending < empty)) {
		t.Fatalf("by age: last known hold at %d, pending at %d, first without holder at %d; want known, pending, none", known, pending, empty)
	}
	if sc := screen(a); !lineHas(sc, "/locks/pending", "curator-mutex", "…") {
		t.Errorf("the OLDEST cell of a lock whose holder is not read is not marked:\n%s", sc)
	}
}

func TestDestructiveActionsRefuseANodeNotReadYet(t *testing.T) {
	a, z, audit := newOperateApp(t)
	addLock(a, pendingLock("/locks/pending", 0))
	send(a, openLockMsg{path: "/locks/pending", node: participant(t, a, "/locks/pending", 0).Path})
	for k, what := range map[string]string{"D": "force-release", "v": "revoke"} {
		a.flash = flash{}
		press(a, k)
		if openDialog(a) != nil {
			t.Fatalf("%s opened a dialog on a node not read", k)
		}
		if l := statusLine(a); !strings.Contains(l, what+": ") ||
			!strings.Contains(l, "its node is not read yet: its version and token are unknown; try again in a moment") {
			t.Errorf("%s on a node not read says %q", k, l)
		}
	}
	// A contender not read whose session owns another node of the lock
	// is a fence candidate whose version is unknown: the fence is
	// refused too.
	orphan := pendingTree("/locks/orphan", 2)
	orphan.t.Children[2].Stat.EphemeralOwner = orphan.t.Children[1].Stat.EphemeralOwner
	addLock(a, orphan.analyze(nil, longHeld))
	send(a, openLockMsg{path: "/locks/orphan"})
	a.flash = flash{}
	press(a, "F")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "fence: ") || !strings.Contains(statusLine(a), "not read yet") {
		t.Errorf("F with a candidate not read: dialog %v, says %q", openDialog(a) != nil, statusLine(a))
	}
	if w := z.writes(); len(w) != 0 || audit.Len() != 0 {
		t.Fatalf("wrote %v, audit %q", w, audit.String())
	}
	// Once read, the same key opens the dialog.
	addLock(a, pendingLock("/locks/pending"))
	send(a, openLockMsg{path: "/locks/pending", node: participant(t, a, "/locks/pending", 0).Path})
	press(a, "D")
	if openDialog(a) == nil {
		t.Fatalf("D on the node once read opened no dialog: %q", statusLine(a))
	}
}

func TestReadingAMarkedLockRingsNoBell(t *testing.T) {
	rang := 0
	a := newTestApp(t, 80, 24, func(o *Options) { o.Bell = func() { rang++ } })
	addLock(a, pendingLock("/locks/pending", 0, 1, 2))
	send(a, openLockMsg{path: "/locks/pending"})
	press(a, "m")
	before := a.env.state.Logged
	addLock(a, pendingLock("/locks/pending", 1, 2))
	addLock(a, pendingLock("/locks/pending"))
	if a.env.state.Logged != before || rang != 0 {
		t.Fatalf("reading the contenders logged %d entries and rang %d times, want none", a.env.state.Logged-before, rang)
	}
	// A real release still rings.
	gone := pendingTree("/locks/pending")
	gone.t.Children = gone.t.Children[1:]
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: "/locks/pending",
		Lock: gone.analyze(nil, longHeld)}}})
	if rang == 0 {
		t.Fatal("a release of the marked lock rang nothing")
	}
}

func TestGroupedCounts(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 41233: "41,233", 1234567: "1,234,567"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}
