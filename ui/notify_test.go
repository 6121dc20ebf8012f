package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

func TestMarkedLockRingsOnGrantAndRelease(t *testing.T) {
	rang := 0
	a := newTestApp(t, 80, 24, func(o *Options) { o.Bell = func() { rang++ } })
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "m")
	if sc := screen(a); !strings.Contains(sc, "/locks/billing ◆  curator-mutex") || !strings.Contains(sc, "the terminal rings") {
		t.Fatalf("m did not mark:\n%s", sc)
	}
	// The holder leaves: the first waiter is granted.
	next := newTree("/locks/billing")
	next.kid(curator("lock-", 21, 18), sid(21), 12*time.Minute, "10.0.1.21")
	next.kid(curator("lock-", 22, 19), sid(22), 3*time.Minute+5*time.Second, "10.0.1.22")
	l := next.analyze(nil, longHeld)
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}}})
	if rang != 1 || !strings.Contains(screen(a), "◆ /locks/billing: granted") {
		t.Fatalf("rang %d times:\n%s", rang, screen(a))
	}
	// Another lock's change does not ring.
	o := newTree("/locks/idle").kid(curator("lock-", 99, 1), sid(99), time.Second, "").analyze(nil, longHeld)
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: o.Path, Lock: o}}})
	if rang != 1 {
		t.Fatalf("an unmarked lock rang: %d", rang)
	}
	press(a, "m")
	if strings.Contains(screen(a), "/locks/billing ◆") {
		t.Fatal("m again did not unmark")
	}
}

func TestGoldenMarkedLock(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			press(a, "down", "m")
			golden(t, "locks_marked_"+sz.name, a)
		})
	}
}
