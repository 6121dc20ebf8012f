package zkwatch_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationLockDirectoryWatches: with a walk burst too small for the
// tree, the watcher finds locks as in a big cluster, and its dumps and
// walks are an hour apart, so only its watches on the directories holding
// locks can find a new one. A new lock beside a known one is found, as is
// one whose parent was made empty before its first contender, and one
// deleted and made again under the same name; a directory without a lock
// is not watched.
func TestIntegrationLockDirectoryWatches(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/locks", "/locks/a", "/other", "/other/x")
	contender(t, admin, "/locks/a")
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	cfg := zkwatch.WatchConfig{EnrichEvery: -1, WalkBurst: 2, WalkRate: 50_000, DumpEvery: time.Hour, WalkEvery: time.Hour}
	c, w := watchWith(t, conn, cfg)
	c.Until(t, "the walk's end", func(s *model.State) bool { return s.Discovery.Complete && participants("/locks/a", 1)(s) })
	d := c.State().Discovery
	if d.WholeTree || d.WatchedDirs != 1 {
		t.Fatalf("want /locks alone watched, not the whole tree: %+v", d)
	}

	mkdirs(t, admin, "/locks/b")
	contender(t, admin, "/locks/b")
	c.Until(t, "a new lock beside a known one", participants("/locks/b", 1))

	mkdirs(t, admin, "/locks/c")
	waitWatched(t, w, "/locks/c")
	contender(t, admin, "/locks/c")
	c.Until(t, "a lock whose parent came empty first", participants("/locks/c", 1))

	node := c.State().Locks["/locks/b"].Participants[0].Path
	if err := admin.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if err := admin.Delete("/locks/b", -1); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "the deleted lock gone", func(s *model.State) bool { return s.Locks["/locks/b"] == nil })
	mkdirs(t, admin, "/locks/b")
	contender(t, admin, "/locks/b")
	c.Until(t, "the lock made again", participants("/locks/b", 1))

	for _, p := range w.Watched() {
		if p == "/other" || p == "/other/x" || p == "/" {
			t.Errorf("a watch on %s, which holds no lock", p)
		}
	}
}

// watchWith starts a watcher and collects its events.
func watchWith(t *testing.T, conn *zkwatch.Conn, cfg zkwatch.WatchConfig) (*watchtest.Feed, *zkwatch.Watcher) {
	t.Helper()
	wctx, cancel := context.WithCancel(context.Background())
	w := zkwatch.Watch(wctx, conn, cfg)
	c := watchtest.Drain(w.Events())
	t.Cleanup(func() { cancel(); <-c.Done() })
	return c, w
}

// waitWatched waits until the watcher holds a watch on p.
func waitWatched(t *testing.T, w *zkwatch.Watcher, p string) {
	t.Helper()
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if !slices.Contains(w.Watched(), p) {
			return "no watch on " + p
		}
		return ""
	})
}
