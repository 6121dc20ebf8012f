package zkwatch_test

import (
	"context"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/bigtree"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationLargeTree checks, on a tree a twentieth of a production
// cluster's size, what does not depend on the machine's speed: the
// watcher's own watches stay within locks, their directories and
// contenders, none is on a directory without a lock, a watch table over
// its budget is not read, and a lock appearing under a lock-free
// directory, or held only by a persistent node, is still found. A second
// watcher, whose dumps and walks are an hour apart, then finds Curator and
// kazoo locks made beside existing ones through its directory watches
// alone, and through its polls where a directory has more children than
// it watches.
func TestIntegrationLargeTree(t *testing.T) {
	// In parallel: it builds and walks a tree of 50,000 nodes, the
	// package's heaviest work, on a server of its own, and what it checks
	// does not depend on the machine's speed; run alone first, it held
	// every other test of the package back for its whole length.
	t.Parallel()
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

	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	wctx, stop := context.WithCancel(context.Background())
	w := zkwatch.Watch(wctx, conn, zkwatch.WatchConfig{EnrichEvery: 300 * time.Millisecond, WatchBudget: 10_000,
		DumpEvery: 500 * time.Millisecond, WalkRate: 50_000})
	c := watchtest.Drain(w.Events())
	t.Cleanup(func() { stop(); <-c.Done() })

	c.Until(t, "every lock with contenders", func(s *model.State) bool {
		for _, p := range tree.LockPaths {
			if l := s.Locks[p]; l == nil || len(l.Participants) != spec.Contenders {
				return false
			}
		}
		return !s.LastSync.IsZero()
	})
	if d := c.State().Discovery; d.DumpAt.IsZero() {
		t.Errorf("the tree is bigger than the walk's burst, yet no dump was used: %+v", d)
	}
	c.UntilProgressing(t, "the walk finding the locks held only by persistent nodes", func(s *model.State) bool {
		for _, p := range tree.StalePaths {
			if s.Locks[p] == nil {
				return false
			}
		}
		return s.Discovery.Complete
	}, walkReads)

	// A lock appears under a directory that holds none: the next dump finds it.
	admin := zks.Connect(t)
	fresh := "/kafka/brokers/topics/topic-00003/partitions/7/leader-lock"
	if _, err := admin.Create(fresh, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	contender(t, admin, fresh)
	c.Until(t, "a new lock under a lock-free directory", participants(fresh, 1))

	c.Until(t, "the servers' answer", func(s *model.State) bool { return s.WatchesNote != "" })
	st := c.State()
	note, locks := st.WatchesNote, len(st.Locks)
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

	lockDirs := lockDirsOf(c.State())
	watched := w.Watched()
	for _, p := range watched {
		l := c.State().Locks[p]
		if l == nil && !isStalePart(p, tree) && !lockDirs[p] {
			t.Errorf("a watch on %s, which is neither a lock nor a directory holding one", p)
		}
	}
	ours := zktest.WatchCount(t, zks.Addr()) - before
	contenders := (spec.Locks+1)*spec.Contenders + spec.Stale
	if bound := locks + len(lockDirs) + contenders + 1000; ours > bound || ours < locks+len(lockDirs) {
		t.Errorf("the watcher holds %d watches on the server; want between %d (one per lock and lock directory) and %d",
			ours, locks+len(lockDirs), bound)
	}
	t.Logf("%d locks in %d directories, %d watches of the watcher's own (%d listed), %d before it", locks, len(lockDirs), ours, len(watched), before)

	newLocksBesideOthers(t, zks, tree, c)
}

// newLocksBesideOthers starts a second watcher that dumps and walks only
// once, an hour apart, and watches directories of up to 99 children (so
// that the tree's groups of 100 locks are polled), then makes a kazoo
// lock in the directory of the stale locks, which is watched, and a
// Curator lock in a group, which is polled: each watcher finds both.
func newLocksBesideOthers(t *testing.T, zks *zktest.Server, tree *bigtree.Tree, c *watchtest.Feed) {
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	q := watchtest.Watch(t, conn, zkwatch.WatchConfig{EnrichEvery: -1, DumpEvery: time.Hour, WalkEvery: time.Hour, WalkRate: 50_000, DirWatchMax: 99})
	q.UntilProgressing(t, "the walk's end", func(s *model.State) bool { return s.Discovery.Complete && !s.LastSync.IsZero() }, walkReads)
	d := q.State().Discovery
	if d.PolledCount != 2 || d.WatchedDirs < 2 {
		t.Errorf("the groups of 100 locks are not polled, or the other lock directories not watched: %+v", d)
	}
	curator := peers.Start(t, peers.Curator, zks.Addr())
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	for _, n := range []struct {
		peer    *peers.Peer
		variant string
		lock    string
		how     string
	}{
		{kazoo, "lock", "/app/stale/lock-kazoo-new", "watched directory"},
		{curator, "mutex", tree.LockPaths[150] + "-curator-new", "polled directory"},
	} {
		first := n.peer.Acquire(t, "a-"+n.variant, n.variant, n.lock)
		n.peer.WaitHeld(t, "a-"+n.variant, 30*time.Second)
		n.peer.Acquire(t, "b-"+n.variant, n.variant, n.lock)
		for who, col := range map[string]*watchtest.Feed{"the second watcher": q, "the first watcher": c} {
			col.Until(t, n.lock+" seen by "+who, participants(n.lock, 2))
			logLatency(t, tree.Session(), col, n.lock+" ("+n.how+", "+who+")", first.Node)
		}
	}
}

// lockDirsOf is the set of directories that hold the locks of s.
func lockDirsOf(s *model.State) map[string]bool {
	dirs := map[string]bool{}
	for p := range s.Locks {
		dirs[path.Dir(p)] = true
	}
	return dirs
}

// logLatency logs the time from the creation of a lock's first contender
// node (its ctime, by the server's clock on this machine) to c's first
// event of the lock.
func logLatency(t *testing.T, admin *zk.Conn, c *watchtest.Feed, what, node string) {
	t.Helper()
	_, stat, err := admin.Get(node)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	seen, _ := c.FirstSeen(path.Dir(node))
	t.Logf("%s: first contender created → first event %v", what, seen.Sub(time.UnixMilli(stat.Ctime)).Round(time.Millisecond))
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

// walkReads is how far the walk under way has read: a walk of 50,000
// nodes takes as long as the machine's load makes it, and a wait for its
// end fails only once it stops reading.
func walkReads(s *model.State) int { return s.Discovery.WalkReads }
