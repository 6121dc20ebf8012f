package lockcore

import (
	"fmt"
	"slices"
	"strings"
)

// resolveServerWatches replaces rule targets with what each waiter's session
// actually watches in this lock, as the servers' table says. A children
// watch is kept as the rule says: the table cannot show it. A waiter whose
// session watches nothing ahead of it watches nothing, even when the
// session owns other contenders here; when the session's only watches here
// are on nodes behind the waiter, what the waiter watches is unknown.
func resolveServerWatches(l *Lock, entries []*entry, w *WatchTable) {
	byPath := make(map[string]*entry, len(entries))
	perSession := map[int64]int{}
	watchable := map[string]*WatchTarget{}
	// Each session's watches on this lock's nodes, in queue order, found
	// from the nodes' side: one client's session may watch in thousands of
	// locks, and going through all its watches for each of its nodes made a
	// table read cost the square of that.
	watchesHere := map[int64][]string{}
	for _, e := range entries {
		byPath[e.path] = e
		perSession[e.node.Stat.EphemeralOwner]++
		watchable[e.path] = &WatchTarget{Node: e.rel, Path: e.path}
		for _, s := range w.Watchers(e.path) {
			watchesHere[s] = append(watchesHere[s], e.path)
		}
	}
	for _, e := range entries {
		session := e.node.Stat.EphemeralOwner
		if session == 0 || l.Recipe == RecipeEphemeral || e.rule != nil && e.rule.Children || e.noWatch {
			continue
		}
		shared := perSession[session] > 1
		var watched, behind []*WatchTarget
		ruleWatched := false
		for _, p := range watchesHere[session] {
			t := watchable[p]
			if p == e.path {
				continue
			}
			// The table is per session: with several nodes in this lock,
			// a watch may be another of its nodes' (a holder's watch on
			// itself, a waiter's on its predecessor). A waiter only ever
			// waits on a node ahead of it, so only those count.
			if shared && e.role == RoleWaiter && !ahead(e, byPath[p]) {
				behind = append(behind, t)
				continue
			}
			watched = append(watched, t)
			ruleWatched = ruleWatched || (e.rule != nil && e.rule.Path == p)
		}
		switch {
		case e.role == RoleHolder:
			kazooReaderOnNewestWrite(e, watched, byPath, perSession[session])
		case ruleWatched:
		case len(watched) == 0 && len(behind) > 0 && e.name.Kind == KindKazooRead:
			// Only kazoo's reader (before 2.9) watches a node queued after
			// it, and which of the session's nodes such a watch serves
			// cannot be told: not known, and not claimed to be nothing.
			e.rule, e.watchUnknown = nil, true
			e.note = fmt.Sprintf("its session owns %d contenders here and watches only %s, behind this one; whether that watch is this waiter's cannot be told",
				perSession[session], nodeList(behind))
		case len(watched) == 0 && e.role == RoleWaiter && w.tooNew(e.node.Stat.Czxid):
			// Its client creates the node, lists the queue, then sets
			// its watch, which makes no zxid: a table read in between
			// shows a healthy waiter watching nothing.
			e.rule, e.watchUnknown = nil, true
			e.note = unsetWatchNote
		case len(watched) == 0 && shared:
			e.rule = nil
			e.note = fmt.Sprintf("its session owns %d contenders here and, by the servers' table, watches none of this lock's other nodes", perSession[session])
		case len(watched) == 0:
			e.rule = nil
		default:
			actual := nearestAhead(e, watched, byPath)
			e.note = fmt.Sprintf("its session watches %s, which its recipe's rule does not name", actual.Node)
			if e.rule != nil {
				e.note = fmt.Sprintf("its session watches %s, not %s as its recipe's rule says", actual.Node, e.rule.Node)
			}
			e.rule = actual
		}
	}
}

// unsetWatchNote says why a waiter absent from the servers' table is not
// judged unwatched (see WatchTable.Since).
const unsetWatchNote = "its node is newer than the servers' watch tables read so far, and its client may not have set its watch yet when the last was read: judged at the next table"

// WatchMaybeUnset reports whether p's watch is unknown only because its
// node is newer than the watch table read before the one it was analysed
// against: a table read later judges it.
func (p Participant) WatchMaybeUnset() bool {
	return p.WatchesUnknown && p.Note == unsetWatchNote
}

// kazooReaderOnNewestWrite catches kazoo's ReadLock before kazoo 2.9: it
// never finds itself among the contenders it filters for, so each time it
// wakes it waits on the newest write lock node in the whole queue, even one
// queued after it. Such a reader holds nothing, though no write is ahead.
func kazooReaderOnNewestWrite(e *entry, watched []*WatchTarget, byPath map[string]*entry, sessionNodes int) {
	if e.name.Kind != KindKazooRead || sessionNodes != 1 {
		return
	}
	for _, t := range watched {
		if o := byPath[t.Path]; o != nil && o.name.Kind == KindKazooLock {
			e.role, e.rule = RoleWaiter, t
			e.note = "its session watches a write lock queued after it: kazoo before 2.9 makes a woken reader wait on the newest write"
			return
		}
	}
}

// nearestAhead picks, among the targets a session watches, the contender
// closest ahead of e in the queue, else the first one.
func nearestAhead(e *entry, watched []*WatchTarget, byPath map[string]*entry) *WatchTarget {
	var best *WatchTarget
	var bestEntry *entry
	for _, t := range watched {
		o := byPath[t.Path]
		if o == nil || !before(e.name.Kind, o, e) {
			continue
		}
		if bestEntry == nil || before(e.name.Kind, bestEntry, o) {
			best, bestEntry = t, o
		}
	}
	if best == nil {
		return watched[0]
	}
	return best
}

func nodeList(ts []*WatchTarget) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Node
	}
	return strings.Join(names, ", ")
}

// WatchersByRule is what Analyze takes as each node's watchers when it
// has no watch table: the sessions of the waiters whose Watches names it,
// by node path. A recording stores watchers only where they differ.
func WatchersByRule(ps []Participant) map[string][]int64 { return watchersByRule(ps) }

// watchersByRule lists, for each node some waiter watches by its recipe's
// rule, the sessions of those waiters: what the recipe says the servers'
// table would show. Children watches name no participant and are left out.
func watchersByRule(ps []Participant) map[string][]int64 {
	out := map[string][]int64{}
	for _, p := range ps {
		if p.Watches == nil || p.Watches.Children || p.Session == 0 || slices.Contains(out[p.Watches.Path], p.Session) {
			continue
		}
		out[p.Watches.Path] = append(out[p.Watches.Path], p.Session)
	}
	for _, ss := range out {
		slices.Sort(ss)
	}
	return out
}

// ahead reports whether o is a contender before e in e's client's order.
func ahead(e, o *entry) bool { return o != nil && before(e.name.Kind, o, e) }
