package zkwatch_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/bigtree"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationLargeTree checks, on a tree a twentieth of a production
// cluster's size, what does not depend on the machine's speed: the
// watcher's own watches stay within locks and contenders, none is on a
// directory without a lock, a watch table over its budget is not read, and
// a lock appearing under a lock-free directory, or held only by a
// persistent node, is still found.
func TestIntegrationLargeTree(t *testing.T) {
	zks := zktest.Start(t, zktest.WithJVMFlags("-Xms512m", "-Xmx1g"), zktest.WithConfig("forceSync=no"))
	spec := bigtree.Spec{Plain: 50_000, Locks: 200, Contenders: 6, Services: 100, Stale: 5, ForeignWatches: 50_000}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tree, err := bigtree.Build(ctx, []string{zks.Addr()}, spec, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	before := zktest.WatchCount(t, zks.Addr())

	conn := dial(t, zks.Addr(), 10*time.Second)
	wctx, stop := context.WithCancel(context.Background())
	w := zkwatch.Watch(wctx, conn, zkwatch.WatchConfig{EnrichEvery: 300 * time.Millisecond, WatchBudget: 10_000,
		DumpEvery: 500 * time.Millisecond, WalkRate: 50_000})
	c := collect(w)
	t.Cleanup(func() { stop(); <-c.done })

	c.waitFor(t, "every lock with contenders", func(s *model.State) bool {
		for _, p := range tree.LockPaths {
			if l := s.Locks[p]; l == nil || len(l.Participants) != spec.Contenders {
				return false
			}
		}
		return !s.LastSync.IsZero()
	})
	c.mu.Lock()
	if d := c.state.Discovery; d.DumpAt.IsZero() {
		t.Errorf("the tree is bigger than the walk's burst, yet no dump was used: %+v", d)
	}
	c.mu.Unlock()
	c.waitFor(t, "the walk finding the locks held only by persistent nodes", func(s *model.State) bool {
		for _, p := range tree.StalePaths {
			if s.Locks[p] == nil {
				return false
			}
		}
		return s.Discovery.Complete
	})

	// A lock appears under a directory that holds none: the next dump finds it.
	admin := zks.Connect(t)
	fresh := "/kafka/brokers/topics/topic-00003/partitions/7/leader-lock"
	if _, err := admin.Create(fresh, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	contender(t, admin, fresh)
	c.waitFor(t, "a new lock under a lock-free directory", participants(fresh, 1))

	c.waitFor(t, "the servers' answer", func(s *model.State) bool { return s.WatchesNote != "" })
	c.mu.Lock()
	note := c.state.WatchesNote
	locks := len(c.state.Locks)
	c.mu.Unlock()
	if !strings.Contains(note, "over the budget of 10000") {
		t.Errorf("watches note %q does not say the table is over budget", note)
	}
	for _, m := range w.Costs().Snapshot() {
		for _, word := range m.Words {
			if word.Word == "wchc" || word.Word == "wchp" {
				t.Errorf("%s asked of %s although the table is over budget", word.Word, m.Member)
			}
		}
	}

	watched := w.Watched()
	for _, p := range watched {
		c.mu.Lock()
		l := c.state.Locks[p]
		c.mu.Unlock()
		if l == nil && !isStalePart(p, tree) {
			t.Errorf("a watch on %s, which is not a lock", p)
		}
	}
	ours := zktest.WatchCount(t, zks.Addr()) - before
	contenders := (spec.Locks+1)*spec.Contenders + spec.Stale
	if bound := locks + contenders + 1000; ours > bound || ours < locks {
		t.Errorf("the watcher holds %d watches on the server; want between %d (one per lock) and %d", ours, locks, bound)
	}
	t.Logf("%d locks, %d watches of the watcher's own (%d listed), %d before it", locks, ours, len(watched), before)
}

// isStalePart reports whether p is a stale lock's path.
func isStalePart(p string, tree *bigtree.Tree) bool {
	for _, s := range tree.StalePaths {
		if p == s {
			return true
		}
	}
	return false
}
