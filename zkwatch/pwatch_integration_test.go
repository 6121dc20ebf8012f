package zkwatch_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/loopback"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// bigTree makes a tree the watcher finds too big to watch whole (with a
// walk burst of 20 reads) and one lock in it, so that its directory is
// watched and nothing else is.
func bigTree(t *testing.T, admin *zk.Conn) {
	t.Helper()
	mkdirs(t, admin, "/big", "/big/plain", "/big/locks", "/big/locks/first")
	for i := range 100 {
		mkdirs(t, admin, fmt.Sprintf("/big/plain/n-%03d", i))
	}
	contender(t, admin, "/big/locks/first")
}

// slowDiscovery is a watcher whose dump and walk come an hour apart: a
// lock found within the test was found by something else.
var slowDiscovery = zkwatch.WatchConfig{Roots: []string{"/big"}, EnrichEvery: -1, WalkBurst: 20, WalkRate: 2000,
	DumpEvery: time.Hour, WalkEvery: time.Hour}

// wchpPaths returns the paths the server's wchp lists as watched.
func wchpPaths(t *testing.T, addr string) []string {
	t.Helper()
	reply := zktest.Ask(t, addr, "wchp")
	var paths []string
	for _, l := range strings.Split(reply, "\n") {
		if strings.HasPrefix(l, "/") {
			paths = append(paths, strings.TrimSpace(l))
		}
	}
	return paths
}

// TestIntegrationPersistentWatchFindsANewLockAnywhere: on ZooKeeper 3.8, a
// lock made in a new subtree of a tree too big to watch whole, with dump
// and walk an hour away, is found by the persistent watch; the server
// holds that one watch on the root while the watcher runs, and none of it
// once the watcher has ended.
func TestIntegrationPersistentWatchFindsANewLockAnywhere(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	bigTree(t, admin)
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := zkwatch.Watch(ctx, conn, slowDiscovery)
	c := watchtest.Drain(w.Events())
	c.Until(t, "the first lock, the first walk's end and the persistent watch live", func(s *model.State) bool {
		return participants("/big/locks/first", 1)(s) && s.Discovery.Complete && s.Discovery.Persistent.Live
	})
	d := c.State().Discovery
	if d.Persistent.Version == "" || d.Persistent.Note != "" || d.ElsewhereWithin != 0 {
		t.Errorf("a live persistent watch: %+v, elsewhere within %s", d.Persistent, d.ElsewhereWithin)
	}
	if paths := wchpPaths(t, zks.Addr()); !contains(paths, "/big") {
		t.Errorf("the server's wchp lists no watch on the root /big: %q", paths)
	}
	mkdirs(t, admin, "/big/plain/n-042/new", "/big/plain/n-042/new/deep", "/big/plain/n-042/new/deep/lock")
	made := time.Now()
	contender(t, admin, "/big/plain/n-042/new/deep/lock")
	c.Until(t, "the lock in a new subtree", participants("/big/plain/n-042/new/deep/lock", 1))
	seen, _ := c.FirstSeen("/big/plain/n-042/new/deep/lock")
	t.Logf("found %s after it was made", seen.Sub(made))
	if d := c.State().Discovery; d.DumpAt.After(made) || d.WalkedAt.After(made) {
		t.Fatalf("a dump or a walk ran after the lock was made: %+v", d)
	}
	cancel()
	<-c.Done()
	if paths := wchpPaths(t, zks.Addr()); contains(paths, "/big") {
		t.Errorf("the watch on /big outlived the watcher: wchp %q", paths)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestIntegrationPersistentWatchRefusedFallsBack: a member that refuses
// addWatch (with an error, or by closing the connection as a 3.5 server
// does, its release unknown) leaves discovery to the dump and the walk:
// Discovery says the watch is off and why, and a lock made in a new
// subtree is still found, by the walk.
func TestIntegrationPersistentWatchRefusedFallsBack(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	bigTree(t, admin)
	for _, tc := range []struct {
		name        string
		refusal     loopback.AddWatchRefusal
		refuseWords bool
		note        string
	}{
		{"answers an error", loopback.AnswerError, false, "refused addWatch on /big (UNIMPLEMENTED)"},
		{"closes the connection", loopback.CloseConnection, true, "closed the connection at addWatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			member := loopback.RefusingMember(t, zks.Addr(), tc.refusal, tc.refuseWords)
			conn := watchtest.Dial(t, member, zkwatch.Options{SessionTimeout: 10 * time.Second, Admin: &words.AdminServer{Off: true}})
			cfg := slowDiscovery
			cfg.WalkEvery = 200 * time.Millisecond
			c := watchtest.Watch(t, conn, cfg)
			c.Until(t, "the watch off, and why", func(s *model.State) bool {
				return s.Discovery.Persistent.Off && participants("/big/locks/first", 1)(s)
			})
			d := c.State().Discovery
			if !strings.Contains(d.Persistent.Note, tc.note) || d.Persistent.Live {
				t.Errorf("Discovery.Persistent = %+v, want off with a note saying %q", d.Persistent, tc.note)
			}
			lock := "/big/plain/n-007/" + strings.ReplaceAll(tc.name, " ", "-")
			mkdirs(t, admin, lock)
			contender(t, admin, lock)
			c.Until(t, "the lock in a new subtree, found by the walk", participants(lock, 1))
		})
	}
}

// TestIntegrationPersistentWatchSetAgainAfterADrop: the persistent watch's
// connection cut (a fault proxy) while a lock is made in a new subtree,
// then the server restarted: the watch is set again each time, and the
// lock it was not told of is found by the re-read that follows, with dump
// and walk an hour away.
func TestIntegrationPersistentWatchSetAgainAfterADrop(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	bigTree(t, admin)
	proxy := zktest.NewProxy(t, zks.Addr())
	conn := watchtest.Dial(t, proxy.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	c := watchtest.Watch(t, conn, slowDiscovery)
	c.Until(t, "the first walk's end and the persistent watch live", func(s *model.State) bool {
		return s.Discovery.Complete && s.Discovery.Persistent.Live
	})
	before := c.State().Discovery
	proxy.Blackhole(true)
	c.Until(t, "the persistent watch down", func(s *model.State) bool { return !s.Discovery.Persistent.Live })
	mkdirs(t, admin, "/big/plain/n-013/made-while-down")
	contender(t, admin, "/big/plain/n-013/made-while-down")
	proxy.Blackhole(false)
	c.Until(t, "the watch set again, and the lock made while it was down", func(s *model.State) bool {
		return s.Discovery.Persistent.Readded >= 1 && s.Discovery.Persistent.Live && participants("/big/plain/n-013/made-while-down", 1)(s)
	})
	if d := c.State().Discovery; !d.WalkedAt.Equal(before.WalkedAt) || !d.DumpAt.Equal(before.DumpAt) {
		t.Fatalf("a walk or a dump ran again, so the re-read is not what found the lock: %+v", d)
	}

	zks.Restart()
	c.Until(t, "the watch set again after the restart", func(s *model.State) bool {
		return s.Discovery.Persistent.Readded >= 2 && s.Discovery.Persistent.Live
	})
	// The test's first client may still be reconnecting, its requests
	// failing with no server: the lock is made by one connected after the
	// restart.
	after := zks.Connect(t)
	mkdirs(t, after, "/big/plain/n-014/after-restart")
	contender(t, after, "/big/plain/n-014/after-restart")
	c.Until(t, "a lock made after the restart", participants("/big/plain/n-014/after-restart", 1))
}

// TestIntegrationPersistentWatchFlood: a client floods the root with
// nodes whose names could be contenders, in new directories, faster than
// they can be looked at: the queue never holds more than its bound, the
// overflow is said, the watcher still reports a new lock beside a known
// one during the flood, and the re-read finds the lock made in a new
// subtree whose notification the overflow dropped.
func TestIntegrationPersistentWatchFlood(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	bigTree(t, admin)
	mkdirs(t, admin, "/big/flood")
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	cfg := slowDiscovery
	cfg.PersistentQueueMax = 64
	cfg.WalkRate = 20000
	c := watchtest.Watch(t, conn, cfg)
	c.Until(t, "the first walk's end and the persistent watch live", func(s *model.State) bool {
		return s.Discovery.Complete && s.Discovery.Persistent.Live
	})
	flooder := zks.Connect(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var made, senders atomic.Int64
	// Up to four senders: one multi of 200 new directories already tells
	// of three times the queue's bound at once, and more only slow the
	// server, which lengthens the flood (it lasts until the lock beside a
	// known one is reported) and the re-read of everything it made. Nor
	// more creates in flight than the server commits within floodWait: a
	// request made during the flood (the flooder's pings, the locks made
	// below) waits behind every create in flight, and the test's clients
	// drop a connection that hears nothing for two thirds of their session
	// timeout. Each sender starts the next once its transaction came back
	// in time, and a sender whose transaction did not stops (the first
	// always goes on).
	const floodWait = zktest.ClientSessionTimeout / 6
	var send func(g int)
	send = func(g int) {
		senders.Add(1)
		wg.Go(func() {
			next := g+1 < 4
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var ops []any
				for j := range 200 {
					d := fmt.Sprintf("/big/flood/g%d-%d-%d", g, i, j)
					ops = append(ops, &zk.CreateRequest{Path: d, Acl: zk.WorldACL(zk.PermAll)},
						&zk.CreateRequest{Path: d + "/n-", Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagSequence})
				}
				sent := time.Now()
				if _, err := flooder.Multi(ops...); err != nil {
					t.Errorf("flood: %v", err)
					return
				}
				made.Add(int64(len(ops)))
				switch took := time.Since(sent); {
				case took > floodWait && g > 0:
					return
				case took <= floodWait && next:
					next = false
					send(g + 1)
				}
			}
		})
	}
	send(0)
	start := time.Now()
	c.Until(t, "the queue's overflow", func(s *model.State) bool { return s.Discovery.Persistent.Overflows > 0 })
	mkdirs(t, admin, "/big/locks/second", "/big/plain/n-021/in-the-flood")
	contender(t, admin, "/big/locks/second")
	contender(t, admin, "/big/plain/n-021/in-the-flood")
	c.Until(t, "a lock beside a known one during the flood", participants("/big/locks/second", 1))
	time.Sleep(time.Until(start.Add(3 * time.Second))) // a flood of some length, for its rate
	close(stop)
	wg.Wait()
	t.Logf("%d nodes made in %s (%.0f a second) by %d senders at most", made.Load(), time.Since(start), float64(made.Load())/time.Since(start).Seconds(), senders.Load())
	// Found by the overflow's re-read, a walk of every node the flood
	// made, whose length the machine's speed sets: it fails once the
	// re-read stops reading without finding it, never because it is slow.
	c.UntilProgressing(t, "the lock made in a new subtree during the flood", participants("/big/plain/n-021/in-the-flood", 1),
		func(s *model.State) int { return s.Discovery.Persistent.RereadReads })
	var rereading bool
	peak := 0
	for _, ev := range c.Events() {
		if ev.Kind != zkwatch.EventDiscovery {
			continue
		}
		p := ev.Discovery.Persistent
		if p.Queued > p.QueueMax || p.QueueMax != 64 {
			t.Fatalf("%d directories queued, past the bound of %d", p.Queued, p.QueueMax)
		}
		rereading = rereading || p.Rereading
		peak = max(peak, p.Rate)
	}
	t.Logf("at most %d notifications in a second", peak)
	if !rereading {
		t.Error("no Discovery said that the overflow's re-read was under way")
	}
}

// TestIntegrationPersistentWatchSparesTheDump: once a dump was read while
// the persistent watch was live, and the watch has stayed live, dump is
// asked no more on its period (here 100 ms, six times that while the
// watch is live): the watch has told of every node created since, and a
// lock made in a new subtree is still found at once.
func TestIntegrationPersistentWatchSparesTheDump(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	bigTree(t, admin)
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	cfg := slowDiscovery
	cfg.DumpEvery, cfg.Costs = 100*time.Millisecond, words.NewCosts()
	c := watchtest.Watch(t, conn, cfg)
	// A dump asked before the watch went live may be read after it, and
	// is rightly followed by one more: wait for one asked while it was.
	c.Until(t, "a dump asked while the watch was live", func(s *model.State) bool { return s.Discovery.Persistent.SparesDump })
	dumps := func() int {
		for _, m := range cfg.Costs.Snapshot() {
			for _, w := range m.Words {
				if w.Word == "dump" {
					return w.Asks
				}
			}
		}
		return 0
	}
	before, dumpAt := dumps(), c.State().Discovery.DumpAt
	// Ten of the live watch's dump periods.
	time.Sleep(6 * time.Second)
	mkdirs(t, admin, "/big/plain/n-007/spared", "/big/plain/n-007/spared/lock")
	contender(t, admin, "/big/plain/n-007/spared/lock")
	c.Until(t, "the lock in a new subtree", participants("/big/plain/n-007/spared/lock", 1))
	if got, d := dumps(), c.State().Discovery; got != before || !d.DumpAt.Equal(dumpAt) || !d.Persistent.Live {
		t.Errorf("dump asked %d times more with the watch live throughout (last read %v, then %v): %+v", got-before, dumpAt, d.DumpAt, d.Persistent)
	}
}
