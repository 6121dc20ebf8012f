package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// The locks list opens worst first: the worst anomaly, then the longest
// wait, then the most contended.
func TestWorstFirstByDefault(t *testing.T) {
	stuck := newTree("/s/stuck").kid(curator("lock-", 1, 1), 0, time.Second, "").analyze(nil, lockcore.Options{})
	// Two locks whose oldest waiters queued at the same moment: the one
	// with more waiters first.
	d := newTree("/s/d").kid(curator("lock-", 2, 1), sid(2), 10*time.Second, "").
		kid(curator("lock-", 3, 2), sid(3), 5*time.Second, "").kid(curator("lock-", 4, 3), sid(4), time.Second, "").analyze(nil, lockcore.Options{})
	e := newTree("/s/e").kid(curator("lock-", 5, 1), sid(5), 10*time.Second, "").
		kid(curator("lock-", 6, 2), sid(6), 5*time.Second, "").analyze(nil, lockcore.Options{})
	// More waiters, all of them newer: after both.
	f := newTree("/s/f").kid(curator("lock-", 7, 1), sid(7), 10*time.Second, "").
		kid(curator("lock-", 8, 2), sid(8), 2*time.Second, "").kid(curator("lock-", 9, 3), sid(9), 2*time.Second, "").
		kid(curator("lock-", 10, 4), sid(10), 2*time.Second, "").analyze(nil, lockcore.Options{})
	idle := newTree("/s/idle").kid(curator("lock-", 11, 1), sid(11), time.Minute, "").analyze(nil, lockcore.Options{})

	a := New(Options{Now: func() time.Time { return t0 }, Location: time.UTC})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	send(a, lockEvents(idle, f, e, d, stuck))
	var got []string
	for _, r := range a.locks.rows {
		got = append(got, r.path)
	}
	want := []string{"/s/stuck", "/s/d", "/s/e", "/s/f", "/s/idle"}
	if !slices.Equal(got, want) {
		t.Fatalf("worst first:\n got %v\nwant %v", got, want)
	}
	if !strings.Contains(screen(a), "by severity") {
		t.Errorf("the title does not name the order:\n%s", screen(a))
	}
	var sorted []string
	for _, l := range a.env.state.SortedLocks(model.BySeverity) {
		sorted = append(sorted, l.Path)
	}
	if !slices.Equal(sorted, want) {
		t.Errorf("the model sorts otherwise: %v", sorted)
	}
}

// The fixture as the list first shows it, worst first.
func TestGoldenWorstFirst(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h, func(o *Options) { o.Sort = "" })
			golden(t, "locks_worst_first_"+sz.name, a)
		})
	}
}

// The order begins where the last run left it, and each one picked is
// told, to be remembered; an order the UI does not know is worst first.
func TestSortRemembered(t *testing.T) {
	var told []string
	a := newTestApp(t, 80, 24, func(o *Options) {
		o.Sort = model.ByWait
		o.SortChanged = func(order string) { told = append(told, order) }
	})
	if got := lockOrders[a.locks.order]; got != model.ByWait {
		t.Fatalf("began by %s, want %s", got, model.ByWait)
	}
	press(a, "s", "s")
	if want := []string{model.ByContention, model.ByAge}; fmt.Sprint(told) != fmt.Sprint(want) {
		t.Errorf("told %v, want %v", told, want)
	}
	for _, bad := range []string{"", "bogus"} {
		a := newTestApp(t, 80, 24, func(o *Options) { o.Sort = bad })
		if got := lockOrders[a.locks.order]; got != model.BySeverity {
			t.Errorf("Sort %q began by %s, want %s", bad, got, model.BySeverity)
		}
	}
}

// A plain lock watched by two zklocks (their mark), by a tool that also
// watches another lock (judged), and by one real waiter: the row counts
// one waiter and says observers: 3; the detail lists each observer with
// its evidence, the judged one said to be judged.
func TestGoldenPlainLockObservers(t *testing.T) {
	const lock, other = "/jobs/nightly-lock", "/jobs/report-lock"
	b := newTree(lock)
	b.t.Self = b.node("nightly-lock", sid(40), time.Minute, "batch-7")
	table := lockcore.NewWatchTable(map[int64][]string{
		sid(41): {lockcore.ObserverMark, lock}, sid(42): {lock, lockcore.ObserverMark},
		sid(43): {lock, other}, sid(44): {lock},
	}).Scoped(func(p string) bool { return p == lock || p == other })
	l := lockcore.Analyze(b.t, table, lockcore.Options{})
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := New(Options{Now: func() time.Time { return t0 }, Location: time.UTC, Profile: termenv.Ascii})
			a.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			send(a, lockEvents(&l))
			golden(t, "locks_plain_observers_"+sz.name, a)
			send(a, openLockMsg{path: lock})
			golden(t, "detail_plain_observers_"+sz.name, a)
		})
	}
}
