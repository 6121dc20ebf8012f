package lockcore

import "testing"

func TestScopedWatchTableJudgesOnlyItsLocks(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2))
	// Read while only /other was shown: it kept nothing of /l's watches,
	// and must not say that /l's waiter watches nothing.
	table := NewWatchTable(map[int64][]string{9: {"/other/x"}}).Scoped(func(p string) bool { return p == "/other" })
	l := Analyze(tree, table, Options{})
	if l.WatchesSource != WatchesFromRecipe || l.WatchesGap == "" || len(l.Warnings) != 0 {
		t.Fatalf("a table read without this lock must not judge it: source %s, gap %q, warnings %v", l.WatchesSource, l.WatchesGap, l.Warnings)
	}
	noAnomaly(t, l)
	covered := NewWatchTable(map[int64][]string{2: {"/l/" + c(0)}}).Scoped(func(p string) bool { return p == "/l" })
	if l := Analyze(tree, covered, Options{}); l.WatchesSource != WatchesFromServer {
		t.Fatalf("a table that kept this lock's watches is used: %s", l.WatchesSource)
	}
}
