package lockcore

import (
	"fmt"
	"strings"
	"testing"
)

func watchersOf(l Lock) string {
	var parts []string
	for _, p := range l.Participants {
		parts = append(parts, fmt.Sprint(p.Watchers))
	}
	return strings.Join(parts, " ")
}

func TestWatchersComeFromTheSameSourceAsWatches(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3))
	for _, tc := range []struct {
		name     string
		table    *WatchTable
		source   WatchSource
		watchers string
	}{
		// By the rule, each waiter's session watches its predecessor.
		{"recipe", nil, WatchesFromRecipe, "[2] [3] []"},
		// The servers' table says who watches, including a holder on
		// itself and a session outside the lock.
		{"server", NewWatchTable(map[int64][]string{
			1: {"/l/" + c(0)}, 2: {"/l/" + c(0)}, 3: {"/l/" + c(1)}, 9: {"/l/" + c(1)},
		}), WatchesFromServer, "[1 2] [3 9] []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Analyze(tree, tc.table, Options{})
			if l.WatchesSource != tc.source || watchersOf(l) != tc.watchers {
				t.Fatalf("source %s watchers %s, want %s %s", l.WatchesSource, watchersOf(l), tc.source, tc.watchers)
			}
			// Every waiter's session is among its target's watchers.
			for _, p := range l.Participants {
				if p.Watches == nil {
					continue
				}
				q, _ := l.Participant(p.Watches.Node)
				if !strings.Contains(fmt.Sprint(q.Watchers), fmt.Sprint(p.Session)) {
					t.Fatalf("%s watches %s, whose watchers are %v", p.Node, q.Node, q.Watchers)
				}
			}
		})
	}
}

func TestSharedSessionWatchingNothingIsSaidSo(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	// Session 5 owns two waiters and watches nothing in the lock.
	tree := queueTree("/l", b.node(c(0), 4), b.node(c(1), 5), b.node(c(2), 5))
	l := Analyze(tree, judged(NewWatchTable(map[int64][]string{4: {"/l/" + c(0)}, 5: {"/elsewhere"}})), Options{})
	if got := layout(l); got != c(0)+":h:- "+c(1)+":w:- "+c(2)+":w:-" {
		t.Fatalf("queue: %s", got)
	}
	n := 0
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyUnwatchedWaiter {
			n++
		}
	}
	if n != 2 || !strings.Contains(l.Participants[2].Note, "watches none of this lock's other nodes") {
		t.Fatalf("%d unwatched-waiter anomalies (want 2), note %q", n, l.Participants[2].Note)
	}
	if watchersOf(l) != "[4] [] []" {
		t.Fatalf("watchers %s", watchersOf(l))
	}
}

func TestKazooReaderWatchingBehindItIsUnknown(t *testing.T) {
	b := &builder{}
	w := func(i int) string { return fmt.Sprintf("%032x__lock__%010d", i, i) }
	r := func(i int) string { return fmt.Sprintf("%032x__rlock__%010d", i, i) }
	// Session 5 owns reader 1 and writer 3; its only watch here is on
	// writer 2, behind its reader: kazoo 2.8's reader may watch a write
	// queued after it, or the watch is its writer's.
	tree := queueTree("/l", b.node(w(0), 4), b.node(r(1), 5), b.node(w(2), 6), b.node(w(3), 5))
	l := Analyze(tree, NewWatchTable(map[int64][]string{4: {}, 5: {"/l/" + w(2)}, 6: {"/l/" + r(1)}}), Options{})
	p := l.Participants[1]
	if p.Watches != nil || !p.WatchesUnknown || !strings.Contains(p.Note, "cannot be told") {
		t.Fatalf("reader: %+v", p)
	}
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyUnwatchedWaiter && a.Node == p.Node {
			t.Fatalf("an unknown watch is no evidence of an unwatched waiter: %+v", a)
		}
	}
}
