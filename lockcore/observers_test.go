package lockcore

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// Who watching a plain lock's node waits for it, and who only looks.
func TestObserverRule(t *testing.T) {
	const lock = "/app/lock"
	locks := func(p string) bool { return p == lock || p == "/app/other" || p == "/jobs/q" || p == "/jobs/r" }
	tests := []struct {
		name    string
		watches map[int64][]string
		scoped  bool
		absent  bool
		waiters []int64
		certain []int64 // observers carrying zklocks' mark
		judged  []int64 // observers judged from their watches
	}{
		{name: "a naive waiter watches the node alone",
			watches: map[int64][]string{0x11: {lock}}, scoped: true, waiters: []int64{0x11}},
		{name: "three zklocks watchers, each with its mark",
			watches: map[int64][]string{0x21: {lock, ObserverMark}, 0x22: {lock, ObserverMark}, 0x23: {ObserverMark, lock}},
			scoped:  true, absent: true, certain: []int64{0x21, 0x22, 0x23}},
		{name: "zklocks with its mark beside a real waiter, the lock free",
			watches: map[int64][]string{0x21: {lock, ObserverMark}, 0x11: {lock}}, scoped: true, absent: true,
			waiters: []int64{0x11}, certain: []int64{0x21}},
		{name: "the mark is enough without a scope",
			watches: map[int64][]string{0x21: {lock, ObserverMark}, 0x11: {lock}},
			waiters: []int64{0x11}, certain: []int64{0x21}},
		{name: "a session on two plain locks' nodes is judged an observer",
			watches: map[int64][]string{0x31: {lock, "/app/other"}}, scoped: true, judged: []int64{0x31}},
		{name: "a session watching a queue lock's directory too",
			watches: map[int64][]string{0x32: {"/jobs/q", lock}}, scoped: true, judged: []int64{0x32}},
		{name: "a waiter in a queue elsewhere watches a node there, not a lock's path",
			watches: map[int64][]string{0x12: {lock, "/jobs/q/lock-0000000003"}}, scoped: true, waiters: []int64{0x12}},
		{name: "watches outside every lock the table covers prove nothing",
			watches: map[int64][]string{0x13: {lock, "/config/x"}}, scoped: true, waiters: []int64{0x13}},
		{name: "without a scope, no other lock is known: a waiter",
			watches: map[int64][]string{0x31: {lock, "/app/other"}}, waiters: []int64{0x31}},
		{name: "the holder watching its own node is neither",
			watches: map[int64][]string{0x99: {lock}, 0x11: {lock}}, scoped: true, waiters: []int64{0x11}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			table := NewWatchTable(tc.watches)
			if tc.scoped {
				table = table.Scoped(locks)
			}
			tree := Tree{Path: lock, Absent: true, ReadAt: time.Now()}
			if !tc.absent {
				tree = Tree{Path: lock, Self: Node{Name: "lock", Stat: zk.Stat{EphemeralOwner: 0x99, Czxid: 7}}, ReadAt: time.Now()}
			}
			l := Analyze(tree, table, Options{})
			if !slices.Equal(l.HiddenWaiters, tc.waiters) {
				t.Errorf("waiters %x, want %x", l.HiddenWaiters, tc.waiters)
			}
			var certain, judged []int64
			for _, o := range l.Observers {
				if o.Certain {
					certain = append(certain, o.Session)
				} else {
					judged = append(judged, o.Session)
					if !strings.Contains(o.Evidence, "would look the same") {
						t.Errorf("a judged observer's evidence does not say what else looks the same: %q", o.Evidence)
					}
				}
			}
			if !slices.Equal(certain, tc.certain) || !slices.Equal(judged, tc.judged) {
				t.Errorf("observers: marked %x judged %x, want %x and %x", certain, judged, tc.certain, tc.judged)
			}
			if want := len(tc.waiters); l.Waiters() != want {
				t.Errorf("Waiters() = %d, want %d: observers are not waiters", l.Waiters(), want)
			}
		})
	}
}

// Observers make no herd: three zklocks and one waiter on a held node is
// one waiter, not four racing.
func TestObserversMakeNoHerd(t *testing.T) {
	const lock = "/app/lock"
	table := NewWatchTable(map[int64][]string{0x21: {lock, ObserverMark}, 0x22: {lock, ObserverMark}, 0x11: {lock}})
	tree := Tree{Path: lock, Self: Node{Name: "lock", Stat: zk.Stat{EphemeralOwner: 0x99, Czxid: 7}}, ReadAt: time.Now()}
	l := Analyze(tree, table, Options{})
	if len(l.Anomalies) != 0 {
		t.Errorf("anomalies %+v, want none: one waiter is no herd", l.Anomalies)
	}
	table = NewWatchTable(map[int64][]string{0x21: {lock, ObserverMark}, 0x12: {lock}, 0x11: {lock}})
	if l := Analyze(tree, table, Options{}); !slices.Contains(kinds(l), string(AnomalyHerd)) {
		t.Errorf("two real waiters are a herd: %v", kinds(l))
	}
}

// A session's verdict rests on its watches outside the lock, so a table
// in which they changed is not the same for the lock, though its own
// node's watchers are.
func TestSameForSeesObserversChange(t *testing.T) {
	const lock = "/app/lock"
	locks := func(p string) bool { return p == lock || p == "/app/other" }
	tree := Tree{Path: lock, Absent: true}
	a := NewWatchTable(map[int64][]string{0x31: {lock}}).Scoped(locks)
	b := NewWatchTable(map[int64][]string{0x31: {lock, "/app/other"}}).Scoped(locks)
	c := NewWatchTable(map[int64][]string{0x31: {lock, ObserverMark}}).Scoped(locks)
	if a.SameFor(b, tree) || b.SameFor(c, tree) || a.SameFor(c, tree) {
		t.Error("tables judging the lock's watcher differently read the same for it")
	}
	if !b.SameFor(NewWatchTable(map[int64][]string{0x31: {lock, "/app/other"}}).Scoped(locks), tree) {
		t.Error("two equal tables differ")
	}
}
