//go:build !race

package zkwatch_test

// These tests drop the watcher's connection while it holds watches, so
// go-zookeeper re-registers them on reconnect and races with itself
// (Conn.recvLoop writes lastZxid at conn.go:849 while Conn.sendSetWatches
// reads it at conn.go:614): they run without -race (make test's second
// invocation). The watcher's own code runs under -race in the other tests.

import (
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestIntegrationReconnectWatcherServerRestart(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/r")
	first := contender(t, admin, "/r")
	// A short session: ZooKeeper 3.8.0 may swallow a reconnect that comes
	// while it is still loading, and go-zookeeper then waits two thirds of
	// ten session timeouts before it tries again.
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 2 * time.Second}), zkwatch.WatchConfig{Roots: []string{"/r"}, Locks: []string{"/r"}})
	c.Until(t, "the lock", participants("/r", 1))
	zks.Stop()
	c.Until(t, "the disconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Disconnected && s.Stale() })
	zks.Restart()
	c.Until(t, "the reconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Connected })
	other := zks.Connect(t)
	made := contender(t, other, "/r")
	want := settledContenders(t, admin, other, "/r", first)
	if !slices.Contains(want, made) {
		t.Fatalf("the contender made after the restart, %s, is not among /r's children %v", made, want)
	}
	c.Until(t, "every contender the server holds after the restart, each listed once", contendersAre("/r", want))
}

// settledContenders returns the paths of parent's children, read through
// reader, once the fate of first, a contender made before a restart by
// admin, is settled. It outlives the restart only when admin's session
// does, and under load it may not: the server, loading, can swallow
// admin's reconnect, and go-zookeeper then waits for two thirds of ten
// session timeouts before it tries again, past the session's end. The
// watcher must then show it gone. Settled: admin has its session back, or
// the server has ended it and first is gone.
func settledContenders(t *testing.T, admin, reader *zk.Conn, parent, first string) []string {
	t.Helper()
	session := admin.SessionID()
	deadline := time.Now().Add(watchtest.Wait)
	for admin.State() != zk.StateHasSession || admin.SessionID() != session {
		exists, _, err := reader.Exists(first)
		if err != nil {
			t.Fatalf("exists %s: %v", first, err)
		}
		if !exists {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("neither has the first client its session back nor is its contender gone %v after the restart (state %v)", watchtest.Wait, admin.State())
		}
		time.Sleep(20 * time.Millisecond)
	}
	names, _, err := reader.Children(parent)
	if err != nil {
		t.Fatalf("list %s: %v", parent, err)
	}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = parent + "/" + n
	}
	slices.Sort(paths)
	return paths
}

// contendersAre holds when the lock at path lists exactly the contenders
// at want (sorted), each once.
func contendersAre(path string, want []string) func(s *model.State) bool {
	return func(s *model.State) bool {
		l := s.Locks[path]
		if l == nil {
			return false
		}
		var got []string
		for _, p := range l.Participants {
			got = append(got, p.Path)
		}
		slices.Sort(got)
		return slices.Equal(got, want)
	}
}

func TestIntegrationReconnectWatcherSessionExpiry(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/e")
	contender(t, admin, "/e")
	proxy := zktest.NewProxy(t, zks.Addr())
	conn := watchtest.Dial(t, proxy.Addr(), zkwatch.Options{SessionTimeout: 2 * time.Second})
	c := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/e"}, Locks: []string{"/e"}})
	c.Until(t, "the lock", participants("/e", 1))
	first := conn.SessionID()
	proxy.Blackhole(true)
	// While the watcher cannot hear, the tree changes.
	contender(t, admin, "/e")
	c.Until(t, "the disconnect", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Disconnected })
	time.Sleep(4 * time.Second) // twice the session timeout: the server expires the session
	proxy.Blackhole(false)
	c.Until(t, "a new session", func(s *model.State) bool {
		return s.Conn.Phase == zkwatch.Connected && s.Conn.Session != first
	})
	c.Until(t, "the change made while expired", participants("/e", 2))
	// The re-sync is reported once every lock found again has been read,
	// which may be just after the lock's new reading arrives.
	c.UntilEvent(t, "a re-sync after expiry", func(ev zkwatch.Event) bool { return ev.Kind == zkwatch.EventSynced })
	c.UntilEvent(t, "the second sync, after expiry", func(ev zkwatch.Event) bool { return ev.Kind == zkwatch.EventSynced })
	if phases := c.Phases(); !slices.Contains(phases, zkwatch.Expired) {
		t.Fatalf("the expiry was not reported: %v", phases)
	}
}

// A lock found while the server is down fails its first read; the
// reconnect that follows, in the same session, reads every lock tracked
// again, and this one too, though its read never armed a watch. The
// server restart under load met this: the new session's first read of
// the lock failed as the connection dropped again at once.
func TestIntegrationReconnectReadsTheLockItCouldNotRead(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/u", "/v")
	contender(t, admin, "/u")
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 30 * time.Second})
	first := conn.SessionID()
	zks.Stop()
	// Named, and outside the roots searched: only its own read finds it.
	c := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/v"}, Locks: []string{"/u"}})
	c.UntilEvent(t, "the lock's read failing while the server is down", func(ev zkwatch.Event) bool {
		return ev.Kind == zkwatch.EventError && ev.Path == "/u"
	})
	failed := time.Now()
	zks.Restart()
	c.Until(t, "the reconnect, in the same session", func(s *model.State) bool {
		return s.Conn.Phase == zkwatch.Connected && s.Conn.Session == first && s.Conn.Since.After(failed)
	})
	c.Until(t, "the lock read after the reconnect", participants("/u", 1))
}
