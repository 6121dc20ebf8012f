package ui

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// withLock adds l to the fixture's state before the App starts.
func withLock(l *lockcore.Lock) func(*Options) {
	return func(o *Options) {
		o.State.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
}

// A free plain lock (its node absent, two sessions watching for it): its
// header says free, not a selection of none.
func TestGoldenFreePlainLock(t *testing.T) {
	const path = "/jobs/nightly/lock"
	free := newTree(path)
	free.t.Absent = true
	l := free.analyze(map[int64][]string{sid(90): {path}, sid(91): {path}}, longHeld)
	a := newTestApp(t, 80, 24, withLock(l))
	send(a, openLockMsg{path: path})
	golden(t, "detail_free_plain_80x24", a)
}

// An in-house lock no entry describes, whose waiters watch the lock
// node's children (a herd), which no server lists: the fallback rule's
// waiters are unseen, not stuck.
func TestGoldenFallbackHerd(t *testing.T) {
	const path = "/inhouse/reindex"
	herd := newTree(path)
	for i := range 3 {
		herd.kid(fmt.Sprintf("lock-%010d", i), sid(92+i), time.Duration(30-i)*time.Second, "")
	}
	l := herd.settled().analyze(map[int64][]string{sid(93): {"/elsewhere"}}, longHeld)
	a := newTestApp(t, 80, 24, withLock(l))
	send(a, openLockMsg{path: path, node: l.Participants[1].Path})
	golden(t, "detail_fallback_herd_80x24", a)
}

// An in-house lock once taught: its waiters watch the lock node's
// children, named as such (reindex/*, not *), and the selected
// contender's identity is shown at 80 columns.
func TestGoldenTaughtHerd(t *testing.T) {
	const path = "/inhouse/reindex"
	book, err := lockcore.NewBook([]lockcore.Entry{{Name: "acme-reindex", About: "ACME's reindex lock",
		Paths: []string{"/inhouse/*"}, Children: "lock-{seq}", Grant: lockcore.GrantMutex,
		Waits: lockcore.WaitChildren, Identity: "json:host"}})
	if err != nil {
		t.Fatal(err)
	}
	herd := newTree(path)
	for i := range 3 {
		herd.kid(fmt.Sprintf("lock-%010d", i), sid(92+i), time.Duration(30-i)*time.Second, fmt.Sprintf(`{"host":"web%d"}`, i+1))
	}
	l := herd.settled().analyze(nil, lockcore.Options{Book: book, LongHeld: 5 * time.Minute})
	a := newTestApp(t, 80, 24, withLock(l))
	send(a, openLockMsg{path: path, node: l.Participants[1].Path})
	golden(t, "detail_taught_herd_80x24", a)
}
