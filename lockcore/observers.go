package lockcore

import (
	"fmt"
	"slices"
	"strings"
)

// ObserverMark is the server path every live zklocks watcher keeps an
// exists watch on, whatever its chroot: a node nobody creates. A session
// the servers' watch table shows watching it is a zklocks watcher, an
// observer of the locks it watches, never a contender for them. zklocks
// needs its own exists watch on a plain lock node that is gone (to see the
// next holder create it), which from the table alone is what a waiter of
// that lock does; the mark is how another zklocks tells the two apart.
const ObserverMark = "/zookeeper/zklocks-observer"

// Observer is a session that watches a plain lock's node without
// contending for it: not one of its waiters.
type Observer struct {
	Session int64
	// Certain: the session carries zklocks' mark (ObserverMark). Otherwise
	// the verdict is a judgement from its watches, and Evidence says what
	// else would look the same.
	Certain bool
	// Evidence is why the session is taken for an observer, in one
	// sentence.
	Evidence string
}

// observerNamed is how many of a session's other lock paths Evidence names.
const observerNamed = 3

// observer judges session s, which watches the node of the plain lock at
// lockPath and owns no node of it: a waiter, or an observer (ok). The rule:
//
//   - a session that watches ObserverMark is a zklocks watcher, an observer
//     for certain;
//   - a session that also watches the path of another lock the table covers
//     (another plain lock's node, or a lock's own directory) is an
//     observer: a waiter waits on one lock at a time, and a recipe's waiter
//     watches a node in its queue, never a lock's directory. A client that
//     waits for two plain locks at once through one session looks the
//     same, so this verdict is a judgement, and Evidence says so.
//
// Any other session watching the node is a waiter: one that watches only
// this lock's node cannot be told from one (an older zklocks, without the
// mark, watching this lock alone, counts as a waiter).
func (w *WatchTable) observer(s int64, lockPath string) (Observer, bool) {
	if w == nil {
		return Observer{}, false
	}
	if slices.Contains(w.byPath[ObserverMark], s) {
		return Observer{Session: s, Certain: true, Evidence: "a zklocks watcher: its session carries zklocks' mark (an exists watch on " + ObserverMark + ")"}, true
	}
	if w.scope == nil {
		return Observer{}, false
	}
	var others []string
	for _, p := range w.bySession[s] {
		if p != lockPath && p != ObserverMark && w.scope(p) {
			others = append(others, p)
		}
	}
	if len(others) == 0 {
		return Observer{}, false
	}
	slices.Sort(others)
	named := strings.Join(others[:min(len(others), observerNamed)], ", ")
	if len(others) > observerNamed {
		named += fmt.Sprintf(" and %d more", len(others)-observerNamed)
	}
	return Observer{Session: s, Evidence: "also watches the path of another lock (" + named + "): a waiter waits on one lock; " +
		"a client waiting for several plain locks at once through one session would look the same"}, true
}

// splitWatchers sorts the sessions watching a plain lock's node, leaving
// out its owner, into the lock's hidden waiters and its observers.
func splitWatchers(l *Lock, w *WatchTable, owner int64) {
	for _, s := range w.Watchers(l.Path) {
		if s == owner && owner != 0 {
			continue
		}
		if o, ok := w.observer(s, l.Path); ok {
			l.Observers = append(l.Observers, o)
			continue
		}
		l.HiddenWaiters = append(l.HiddenWaiters, s)
	}
}

// marked reports whether session s carries zklocks' mark.
func (w *WatchTable) marked(s int64) bool {
	return w != nil && slices.Contains(w.byPath[ObserverMark], s)
}

// sameObservers reports whether w and o judge alike every session
// watching the node at lockPath, and mark the same sessions: the verdict
// on a session rests on its watches elsewhere, which SameFor's comparison
// of this lock's own paths does not see.
func (w *WatchTable) sameObservers(o *WatchTable, lockPath string) bool {
	if !slices.Equal(w.byPath[ObserverMark], o.byPath[ObserverMark]) {
		return false
	}
	for _, s := range w.byPath[lockPath] {
		a, okA := w.observer(s, lockPath)
		b, okB := o.observer(s, lockPath)
		if okA != okB || a != b {
			return false
		}
	}
	return true
}
