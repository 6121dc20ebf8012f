//go:build !race

package zkwatch_test

// These tests drop the watcher's connection while it holds watches, so
// go-zookeeper re-registers them on reconnect and races with itself
// (Conn.recvLoop writes lastZxid at conn.go:849 while Conn.sendSetWatches
// reads it at conn.go:614): they run without -race (make test's second
// invocation). The watcher's own code runs under -race in the other tests.

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestIntegrationReconnectWatcherServerRestart(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/r")
	contender(t, admin, "/r")
	// A short session: ZooKeeper 3.8.0 may swallow a reconnect that comes
	// while it is still loading, and go-zookeeper then waits two thirds of
	// ten session timeouts before it tries again.
	c := watch(t, dial(t, zks.Addr(), 2*time.Second), zkwatch.WatchConfig{Roots: []string{"/r"}, Locks: []string{"/r"}})
	c.waitFor(t, "the lock", participants("/r", 1))
	zks.Stop()
	c.waitFor(t, "the disconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Disconnected && s.Stale() })
	zks.Restart()
	c.waitFor(t, "the reconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Connected })
	other := zks.Connect(t)
	contender(t, other, "/r")
	c.waitFor(t, "a contender after the restart, listed once", participants("/r", 2))
}

func TestIntegrationReconnectWatcherSessionExpiry(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/e")
	contender(t, admin, "/e")
	proxy := zktest.NewProxy(t, zks.Addr())
	conn := dial(t, proxy.Addr(), 2*time.Second)
	c := watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/e"}, Locks: []string{"/e"}})
	c.waitFor(t, "the lock", participants("/e", 1))
	first := conn.SessionID()
	proxy.Blackhole(true)
	// While the watcher cannot hear, the tree changes.
	contender(t, admin, "/e")
	c.waitFor(t, "the disconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Disconnected })
	time.Sleep(4 * time.Second) // twice the session timeout: the server expires the session
	proxy.Blackhole(false)
	c.waitFor(t, "a new session", func(s *model.State) bool {
		return s.Conn.Phase == zkwatch.Connected && s.Conn.Session != first
	})
	c.waitFor(t, "the change made while expired", participants("/e", 2))
	// The re-sync is reported once every lock found again has been read,
	// which may be just after the lock's new reading arrives.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		syncs := c.syncs
		c.mu.Unlock()
		if syncs >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("expected a re-sync after expiry, got %d syncs (phases %v)", syncs, c.phases)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	expired := false
	for _, p := range c.phases {
		expired = expired || p == zkwatch.Expired
	}
	if !expired {
		t.Fatalf("the expiry was not reported: %v", c.phases)
	}
}
