package zkwatch_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func lockPaths(s *model.State) []string {
	var out []string
	for _, l := range s.SortedLocks(model.ByPath) {
		out = append(out, fmt.Sprintf("%s(%d)", l.Path, len(l.Participants)))
	}
	return out
}

func participants(path string, n int) func(s *model.State) bool {
	return func(s *model.State) bool { l := s.Locks[path]; return l != nil && len(l.Participants) == n }
}

func mkdirs(t *testing.T, c *zk.Conn, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatalf("create %s: %v", p, err)
		}
	}
}

func contender(t *testing.T, c *zk.Conn, parent string) string {
	t.Helper()
	p, err := c.CreateProtectedEphemeralSequential(parent+"/lock-", []byte("test"), zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIntegrationWatcherFollowsTheTree(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/w", root+"/w/locks", root+"/w/locks/orders", root+"/w/locks/late", root+"/w/config", root+"/w/config/db")
	contender(t, admin, root+"/w/locks/orders")
	contender(t, admin, root+"/w/locks/orders")
	mkdirs(t, admin, root+"/w/secret")
	if _, err := admin.Create(root+"/w/secret/inner", nil, 0, zk.DigestACL(zk.PermAll, "u", "p")); err != nil {
		t.Fatal(err)
	}
	if err := admin.AddAuth("digest", []byte("u:p")); err != nil {
		t.Fatal(err)
	}
	mkdirs(t, admin, root+"/w/secret/inner/x")

	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root + "/w"}})
	c.Until(t, "the first sync", func(s *model.State) bool { return !s.LastSync.IsZero() })
	st := c.State()
	if l := st.Locks[root+"/w/locks/orders"]; l == nil || l.Recipe != lockcore.RecipeGoZKLock || l.Holders() != 1 || l.Waiters() != 1 {
		t.Fatalf("orders after sync: %+v", l)
	}
	if len(st.Locks) != 1 || st.Denied[root+"/w/secret/inner"] == nil {
		t.Fatalf("locks %v, denied %v", lockPaths(st), st.Denied)
	}

	joined := contender(t, admin, root+"/w/locks/orders")
	c.Until(t, "a contender joining", participants(root+"/w/locks/orders", 3))
	if err := admin.Delete(joined, -1); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "a contender leaving", participants(root+"/w/locks/orders", 2))

	contender(t, admin, root+"/w/locks/late")
	c.Until(t, "an empty parent becoming a lock", participants(root+"/w/locks/late", 1))

	mkdirs(t, admin, root+"/w/locks/new")
	n := contender(t, admin, root+"/w/locks/new")
	c.Until(t, "a new lock parent", participants(root+"/w/locks/new", 1))
	if err := admin.Delete(n, -1); err != nil {
		t.Fatal(err)
	}
	if err := admin.Delete(root+"/w/locks/new", -1); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "a lock parent vanishing", func(s *model.State) bool { return s.Locks[root+"/w/locks/new"] == nil })

	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	kazoo.Acquire(t, "a", "lock", root+"/w/locks/kz")
	kazoo.Acquire(t, "b", "lock", root+"/w/locks/kz")
	c.Until(t, "real kazoo contenders", func(s *model.State) bool {
		l := s.Locks[root+"/w/locks/kz"]
		return l != nil && l.Recipe == lockcore.RecipeKazooLock && len(l.Participants) == 2
	})
	kazoo.Release(t, "a")
	c.Until(t, "a kazoo contender released", participants(root+"/w/locks/kz", 1))
}

func TestIntegrationWatcherMissingRoot(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root + "/nope"}, Once: true})
	<-c.Done()
	if errs := c.Errors(); len(errs) != 1 || !errors.Is(errs[0], zk.ErrNoNode) {
		t.Fatalf("errors = %v, want one naming the missing root", errs)
	}
}

func TestIntegrationWatcherLeavesNoGoroutines(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/g")
	contender(t, admin, root+"/g")
	time.Sleep(100 * time.Millisecond)
	before := runtime.NumGoroutine()
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	c := watchtest.Drain(zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{root + "/g"}}).Events())
	c.Until(t, "the lock", participants(root+"/g", 1))
	cancel()
	<-c.Done()
	conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestIntegrationWatcherEnrichment(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   []zktest.Option
		source lockcore.WatchSource
	}{
		{"on", nil, lockcore.WatchesFromServer},
		{"off", []zktest.Option{zktest.WithFourLetterWords("srvr")}, lockcore.WatchesFromRecipe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zks := zktest.Start(t, tc.opts...)
			kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
			a := kazoo.Acquire(t, "a", "lock", "/en")
			kazoo.Acquire(t, "b", "lock", "/en")
			kazoo.WaitHeld(t, "a", 30*time.Second)
			c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{"/en"}, EnrichEvery: 200 * time.Millisecond})
			c.UntilWithin(t, 2*time.Minute, "the servers' answers", func(s *model.State) bool {
				l := s.Locks["/en"]
				return len(s.Servers) == 1 && l != nil && l.WatchesSource == tc.source
			})
			s := c.State()
			if s.Servers[0].Status.Mode != "standalone" {
				t.Fatalf("srvr: %+v", s.Servers[0])
			}
			switch tc.source {
			case lockcore.WatchesFromServer:
				if _, ok := s.Clients[a.Session]; !ok || s.Ghost(a.Session) || s.WatchesNote != "" {
					t.Fatalf("kazoo's session 0x%x not among the clients %v", a.Session, s.Clients)
				}
				if w := s.Locks["/en"].Participants[1].Watches; w == nil || w.Path != a.Node {
					t.Fatalf("the waiter's actual watch: %+v", w)
				}
			default:
				if s.WatchesNote == "" || len(s.Clients) != 0 {
					t.Fatalf("refused words must be said: note %q clients %v", s.WatchesNote, s.Clients)
				}
			}
		})
	}
}
