package lockcore

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestAnomalies(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	kz := func(kind string, i int) string { return fmt.Sprintf("%032x%s%010d", i+1, kind, i) }
	tests := []struct {
		name  string
		kids  func(b *builder) []Node
		w     map[int64][]string
		opt   Options
		kind  AnomalyKind
		node  string
		nodes []string
		check func(t *testing.T, l Lock)
	}{
		{name: "persistent contender", kind: AnomalyPersistent, node: c(0), nodes: []string{c(0)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 0), b.node(c(1), 2)} }},
		{name: "self-wait behind an orphan", kind: AnomalySelfWait, node: c(0), nodes: []string{c(0), c(2)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 5), b.node(c(1), 6), b.node(c(2), 5)} },
			check: func(t *testing.T, l Lock) {
				d := anomaly(t, l, AnomalyDuplicateSession)
				if d.Session != 5 || len(d.Nodes) != 2 || !strings.Contains(d.Detail, "0x5 owns 2 contenders") {
					t.Fatalf("duplicate-session: %+v", d)
				}
			}},
		{name: "long-held holder", kind: AnomalyLongHeld, node: c(0), nodes: []string{c(0)}, opt: Options{LongHeld: 10 * time.Minute},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node(c(1), 2)} }},
		{name: "unparsed child", kind: AnomalyUnparsed, node: "stray", nodes: []string{"stray"},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node("stray", 2)} }},
		{name: "another curator recipe among locks", kind: AnomalyUnparsed, node: curatorName("queue-", 1), nodes: []string{curatorName("queue-", 1)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node(curatorName("queue-", 1), 2)} }},
		{name: "leader latch among locks", kind: AnomalyMixedRecipes, node: "", nodes: []string{c(0), curatorName("latch-", 1)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node(curatorName("latch-", 1), 2)} }},
		{name: "unwatched waiter", kind: AnomalyUnwatchedWaiter, node: c(1), nodes: []string{c(1)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node(c(1), 2)} },
			w:    map[int64][]string{2: {"/elsewhere"}},
			check: func(t *testing.T, l Lock) {
				if p := l.Participants[1]; p.Role != RoleWaiter || p.Watches != nil || p.Chain != nil {
					t.Fatalf("unwatched waiter should have no target: %+v", p)
				}
			}},
		{name: "herd on the holder", kind: AnomalyHerd, node: c(0), nodes: []string{c(0)},
			kids: func(b *builder) []Node { return []Node{b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3)} },
			w:    map[int64][]string{2: {"/l/" + c(0)}, 3: {"/l/" + c(0)}},
			check: func(t *testing.T, l Lock) {
				p := l.Participants[2]
				if p.Watches.Node != c(0) || !strings.Contains(p.Note, "not "+c(1)) {
					t.Fatalf("actual watch should win over the rule: %+v", p)
				}
				if fmt.Sprint(l.Participants[0].Watchers) != "[2 3]" {
					t.Fatalf("watchers = %v", l.Participants[0].Watchers)
				}
			}},
		{name: "kazoo 2.8 reader waits on a later write: a wait cycle", kind: AnomalyWaitCycle,
			node: kz("__rlock__", 1), nodes: []string{kz("__rlock__", 1), kz("__lock__", 2)},
			kids: func(b *builder) []Node { return []Node{b.node(kz("__rlock__", 1), 11), b.node(kz("__lock__", 2), 12)} },
			w:    map[int64][]string{11: {"/l/" + kz("__lock__", 2)}, 12: {"/l/" + kz("__rlock__", 1)}},
			check: func(t *testing.T, l Lock) {
				r := l.Participants[0]
				if r.Role != RoleWaiter || r.Watches.Node != kz("__lock__", 2) || !strings.Contains(r.Note, "kazoo before 2.9") {
					t.Fatalf("reader: %+v", r)
				}
				if strings.Join(r.Chain, ",") != kz("__lock__", 2)+","+kz("__rlock__", 1) {
					t.Fatalf("chain should stop before repeating: %v", r.Chain)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w *WatchTable
			if tt.w != nil {
				w = judged(NewWatchTable(tt.w))
			}
			l := Analyze(settled(queueTree("/l", tt.kids(&builder{})...)), w, tt.opt)
			a := anomaly(t, l, tt.kind)
			if a.Node != tt.node || strings.Join(a.Nodes, ",") != strings.Join(tt.nodes, ",") || a.Detail == "" {
				t.Fatalf("%s: node %q nodes %v, want %q %v (%s)", tt.kind, a.Node, a.Nodes, tt.node, tt.nodes, a.Detail)
			}
			if tt.check != nil {
				tt.check(t, l)
			}
		})
	}
}

func TestServerWatchesConfirmRule(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3))
	w := NewWatchTable(map[int64][]string{2: {"/l/" + c(0)}, 3: {"/l/" + c(1), "/other"}})
	l := Analyze(tree, w, Options{})
	noAnomaly(t, l)
	if l.Participants[2].Note != "" || fmt.Sprint(l.Participants[1].Watchers) != "[3]" {
		t.Fatalf("rule confirmed by server: %+v", l.Participants)
	}
}

func TestCounterWarnings(t *testing.T) {
	b := &builder{}
	near := queueTree("/l", b.node(curatorName("lock-", 1), 1))
	near.Self.Stat.Cversion = 2147483000
	if w := Analyze(near, nil, Options{}).Warnings; len(w) != 1 || !strings.Contains(w[0], "647 creations") {
		t.Fatalf("near wrap: %v", w)
	}
	wrapped := queueTree("/l", b.node("_c_f2f6b74b-d857-43b1-a984-39c874c42dda-lock--2147483648", 1))
	if w := Analyze(wrapped, nil, Options{}).Warnings; len(w) != 1 || !strings.Contains(w[0], "wrapped") {
		t.Fatalf("wrapped: %v", w)
	}
	if w := Analyze(queueTree("/l", b.node(curatorName("lock-", 1), 1)), nil, Options{}).Warnings; len(w) != 0 {
		t.Fatalf("no warning expected: %v", w)
	}
}

func TestOwnWatchIsNoHerd(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2))
	// The holder watches its own node; its one waiter watches it too.
	l := Analyze(tree, NewWatchTable(map[int64][]string{1: {"/l/" + c(0)}, 2: {"/l/" + c(0)}}), Options{})
	noAnomaly(t, l)
}

func TestStaleWatchTableIsNotUsed(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2))
	tree.Self.Stat.Pzxid = tree.Children[1].Stat.Czxid
	// A table read before the waiter queued knows nothing of its watch.
	stale := NewWatchTable(map[int64][]string{9: {"/x"}}).AsOf(tree.Children[1].Stat.Czxid - 1)
	l := Analyze(tree, stale, Options{})
	if l.WatchesSource != WatchesFromRecipe || l.WatchesGap == "" || len(l.Warnings) != 0 {
		t.Fatalf("a stale table must not judge: source %s, gap %q, warnings %v", l.WatchesSource, l.WatchesGap, l.Warnings)
	}
	noAnomaly(t, l)
	fresh := NewWatchTable(map[int64][]string{9: {"/x"}}).AsOf(tree.Children[1].Stat.Czxid)
	if l := Analyze(tree, fresh, Options{}); l.WatchesSource != WatchesFromServer {
		t.Fatalf("a table as new as the lock is used: %s", l.WatchesSource)
	}
}

func TestOrphanAndItsOwnerAreToldApart(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	// Session 5 lost a create reply: its orphan c(1) and its real node
	// c(2). Our client watches its own node from creation, so the session
	// watches both its predecessor (the orphan) and its real node.
	tree := queueTree("/l", b.node(c(0), 4), b.node(c(1), 5), b.node(c(2), 5))
	w := judged(NewWatchTable(map[int64][]string{4: {"/l/" + c(0)}, 5: {"/l/" + c(1), "/l/" + c(2)}}))
	l := Analyze(tree, w, Options{})
	// Nobody waits on the orphan's behalf: its session watches nothing
	// ahead of it.
	if got := layout(l); got != c(0)+":h:- "+c(1)+":w:- "+c(2)+":w:"+c(1) {
		t.Fatalf("queue: %s", got)
	}
	if a := anomaly(t, l, AnomalyUnwatchedWaiter); a.Node != c(1) || !strings.Contains(l.Participants[1].Note, "owns 2 contenders") {
		t.Fatalf("the orphan watches nothing: %+v, note %q", a, l.Participants[1].Note)
	}
	anomaly(t, l, AnomalySelfWait)
	var selected []string
	for _, fc := range FenceCandidates(l) {
		if fc.Selected {
			selected = append(selected, fc.Participant.Node)
		}
	}
	if len(selected) != 1 || selected[0] != c(1) {
		t.Fatalf("only the orphan may be selected for fencing, got %v (anomalies %v)", selected, kinds(l))
	}
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyWaitCycle {
			t.Fatalf("no wait cycle here: %+v", a)
		}
	}
}

// TestFallbackUnwatchedWaiterIsNotCalledStuck: an in-house lock's waiters
// that watch the lock node's children (a herd) hold no watch the servers
// list. Read by the fallback rule, such a waiter is said to watch no node
// seen, and its detail says a children watch cannot be seen rather than
// that nothing will wake it; a known recipe's waiter still is.
func TestFallbackUnwatchedWaiterIsNotCalledStuck(t *testing.T) {
	b := &builder{}
	n := func(i int) string { return fmt.Sprintf("lock-%010d", i) }
	w := judged(NewWatchTable(map[int64][]string{2: {"/elsewhere"}, 3: {"/elsewhere"}}))
	l := Analyze(queueTree("/inhouse/reindex", b.node(n(0), 1), b.node(n(1), 2), b.node(n(2), 3)), w, Options{})
	if len(l.Assumed) == 0 {
		t.Fatalf("an in-house lock was not read by the fallback rule: %+v", l)
	}
	a := anomaly(t, l, AnomalyUnwatchedWaiter)
	if strings.Contains(a.Detail, "nothing will wake it") || !strings.Contains(a.Detail, "a children watch") ||
		!strings.Contains(a.Detail, "cannot be seen") {
		t.Fatalf("the fallback's unwatched waiter claims what it cannot know: %q", a.Detail)
	}
	c := func(i int) string { return curatorName("lock-", i) }
	l = Analyze(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2)), judged(NewWatchTable(map[int64][]string{2: {"/elsewhere"}})), Options{})
	if a := anomaly(t, l, AnomalyUnwatchedWaiter); !strings.Contains(a.Detail, "nothing will wake it") {
		t.Fatalf("a Curator waiter watching nothing: %q", a.Detail)
	}
}
