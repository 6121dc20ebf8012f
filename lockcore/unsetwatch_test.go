package lockcore

import (
	"strings"
	"testing"
)

// TestWaiterNewerThanTheTableBeforeIsNotJudged: a client creates its node,
// lists the queue and only then sets its watch, so a table read in between
// shows a healthy waiter watching nothing. A waiter whose node is newer
// than the table read before is therefore unknown, not unwatched; one
// that was already there then and is still absent is flagged; one the
// table lists is judged by its watch whatever its age.
func TestWaiterNewerThanTheTableBeforeIsNotJudged(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := settled(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3), b.node(c(3), 4)))
	table := NewWatchTable(map[int64][]string{1: {"/elsewhere"}, 4: {"/l/" + c(2)}}).AsOf(tree.LastZxid())
	before := tree.Children[1].Stat.Czxid // c(1) was there when the table before was read

	l := Analyze(tree, table.Since(before), Options{})
	if l.WatchesSource != WatchesFromServer || l.WatchesGap != "" {
		t.Fatalf("the table was not used: %s %q", l.WatchesSource, l.WatchesGap)
	}
	if got := layout(l); got != c(0)+":h:- "+c(1)+":w:- "+c(2)+":w:- "+c(3)+":w:"+c(2) {
		t.Fatalf("queue: %s", got)
	}
	old, young, present := l.Participants[1], l.Participants[2], l.Participants[3]
	if old.WatchesUnknown || young.Watches != nil || !young.WatchesUnknown || present.WatchesUnknown {
		t.Fatalf("unknown: old %v, young %v (watches %+v), present %v", old.WatchesUnknown, young.WatchesUnknown, young.Watches, present.WatchesUnknown)
	}
	if !strings.Contains(young.Note, "may not have set its watch yet") {
		t.Fatalf("the young waiter's note does not say why its watch is unknown: %q", young.Note)
	}
	var flagged []string
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyUnwatchedWaiter {
			flagged = append(flagged, a.Node)
		}
	}
	if strings.Join(flagged, " ") != c(1) {
		t.Fatalf("flagged unwatched %v, want only %s, there before the table before", flagged, c(1))
	}

	// With no table before it, no absent waiter is judged.
	if first := Analyze(tree, table, Options{}); len(kinds(first)) != 0 || !first.Participants[1].WatchesUnknown {
		t.Fatalf("the first table judged an absent waiter: %v", kinds(first))
	}
	// At the next table, the young waiter is judged like the old one.
	next := Analyze(tree, table.Since(tree.LastZxid()), Options{})
	if n := strings.Count(strings.Join(kinds(next), " "), string(AnomalyUnwatchedWaiter)); n != 2 {
		t.Fatalf("the next table flagged %d waiters, want 2: %v", n, kinds(next))
	}
	// A watcher given the next table analyses the lock again.
	if table.Since(before).SameFor(table.Since(tree.LastZxid()), tree) {
		t.Fatal("tables that judge the young waiter differently read the same")
	}
	if !table.Since(before).SameFor(table.Since(before+1), queueTree("/l", tree.Children[0], tree.Children[1])) {
		t.Fatal("tables that judge every node alike read differently")
	}
}
