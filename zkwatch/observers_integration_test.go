package zkwatch_test

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// lookout is one zklocks watcher in its own session, with a check run on
// every analysis of one lock it reports.
type lookout struct {
	*watchtest.Feed
	session int64
	lock    string
	check   func(l *lockcore.Lock) string
}

func startLookout(t *testing.T, connect, root, lock string, check func(l *lockcore.Lock) string) *lookout {
	t.Helper()
	conn := watchtest.Dial(t, connect, zkwatch.Options{SessionTimeout: 10 * time.Second})
	feed := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{root}, EnrichEvery: 200 * time.Millisecond, WatchMode: zkwatch.WatchesServer})
	return &lookout{Feed: feed, session: conn.SessionID(), lock: lock, check: check}
}

func (o *lookout) waitForLock(t *testing.T, what string, cond func(l *lockcore.Lock) bool) {
	t.Helper()
	o.Until(t, "watcher "+lockcore.SessionHex(o.session)+" seeing "+what, func(s *model.State) bool {
		for _, l := range s.Locks {
			if cond(l) {
				return true
			}
		}
		return false
	})
}

// failures are the analyses of the lock read against the servers' watch
// table that failed the check, said.
func (o *lookout) failures() []string {
	var bad []string
	for _, ev := range o.Events() {
		if ev.Kind == zkwatch.EventLock && ev.Path == o.lock && ev.Lock != nil && ev.Lock.WatchesSource == lockcore.WatchesFromServer {
			if why := o.check(ev.Lock); why != "" {
				bad = append(bad, why)
			}
		}
	}
	return bad
}

// Three zklocks watching one plain lock: none takes the others' watches
// on the node for waiters, free or held; a real waiter, a kazoo client in
// a process of its own, is counted once, by each of them.
func TestIntegrationZklocksWatchersAreNotWaiters(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/obs", "/obs/app")
	const lock = "/obs/app/lock"
	holder := zks.Connect(t)
	if _, err := holder.Create(lock, []byte("job-1"), zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	zklocks := map[int64]bool{}
	noZklocksWaits := func(l *lockcore.Lock) string {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range l.HiddenWaiters {
			if zklocks[s] {
				return "a zklocks watcher's session " + lockcore.SessionHex(s) + " counted as a waiter"
			}
		}
		return ""
	}
	var lookouts []*lookout
	for range 3 {
		o := startLookout(t, zks.Addr(), "/obs", lock, noZklocksWaits)
		mu.Lock()
		zklocks[o.session] = true
		mu.Unlock()
		lookouts = append(lookouts, o)
	}
	for _, o := range lookouts {
		o.waitForLock(t, "the lock held", func(l *lockcore.Lock) bool { return l.Path == lock && l.Holders() == 1 })
	}

	// Free: each watcher keeps an exists watch on the node's path, which
	// the servers' table shows as a waiter's would be.
	if err := holder.Delete(lock, -1); err != nil {
		t.Fatal(err)
	}
	for _, o := range lookouts {
		var others []int64
		for s := range zklocks {
			if s != o.session {
				others = append(others, s)
			}
		}
		slices.Sort(others)
		o.waitForLock(t, "the lock free, the two other watchers as observers and no waiter", func(l *lockcore.Lock) bool {
			var obs []int64
			for _, x := range l.Observers {
				if x.Certain {
					obs = append(obs, x.Session)
				}
			}
			slices.Sort(obs)
			return l.Path == lock && l.Holders() == 0 && l.WatchesSource == lockcore.WatchesFromServer &&
				slices.Equal(obs, others) && l.Waiters() == 0 && len(l.HiddenWaiters) == 0 && len(l.Anomalies) == 0
		})
	}

	// Held again, and a kazoo client waits for it the textbook way.
	if _, err := holder.Create(lock, []byte("job-2"), zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	race := peers.StartPlainRace(t, zks.Addr(), lock, 1, time.Second, time.Second)
	waiter := race.Sessions()[0]
	for _, o := range lookouts {
		o.waitForLock(t, "the kazoo waiter counted once", func(l *lockcore.Lock) bool {
			return l.Path == lock && l.Holders() == 1 && l.WatchesSource == lockcore.WatchesFromServer &&
				len(l.HiddenWaiters) == 1 && lockcore.SessionHex(l.HiddenWaiters[0]) == waiter && l.Waiters() == 1
		})
	}
	for _, o := range lookouts {
		for _, why := range o.failures() {
			t.Error(why)
		}
	}
}

// The naive demo, six contenders racing for one node, watched by three
// zklocks: every analysis any of them makes counts only contenders as
// waiters, at most five of them, whatever moment of the race it caught
// (the node gone, or just made again under a watcher's exists watch).
func TestIntegrationNaiveDemoCountsOnlyContenders(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	target, err := zkwatch.ParseConnectString(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	contenders := map[int64]bool{}
	cfg := demo.Config{Options: zkwatch.Options{Target: target}, Recipe: demo.Naive, Contenders: demo.DefaultContenders,
		HoldMin: 50 * time.Millisecond, HoldMax: 200 * time.Millisecond, Pause: 50 * time.Millisecond,
		OnEvent: func(ev demo.Event) {
			if ev.Session != 0 {
				mu.Lock()
				contenders[ev.Session] = true
				mu.Unlock()
			}
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	d, err := demo.Start(ctx, cfg)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	lock := d.LockPath()
	onlyContenders := func(l *lockcore.Lock) string {
		mu.Lock()
		defer mu.Unlock()
		if n := l.Waiters(); n > demo.DefaultContenders-1 {
			return "waiters " + strconv.Itoa(n) + " of " + strconv.Itoa(demo.DefaultContenders) + " contenders"
		}
		for _, s := range l.HiddenWaiters {
			if !contenders[s] {
				return "session " + lockcore.SessionHex(s) + ", no contender, counted as a waiter"
			}
		}
		return ""
	}
	var lookouts []*lookout
	for range 3 {
		lookouts = append(lookouts, startLookout(t, srv.Addr(), demo.Root, lock, onlyContenders))
	}
	for _, o := range lookouts {
		o.waitForLock(t, "the demo's waiters from the servers' table", func(l *lockcore.Lock) bool {
			return l.Path == lock && l.WatchesSource == lockcore.WatchesFromServer && len(l.HiddenWaiters) >= 2
		})
	}
	// Long enough for many hand-overs, each seen by every watcher.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && d.Stats().Grants < 30 {
		time.Sleep(100 * time.Millisecond)
	}
	for _, o := range lookouts {
		for _, why := range o.failures() {
			t.Error(why)
		}
	}
}
