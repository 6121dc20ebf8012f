package recording_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationRecordingHoldsNewLocksFromTheirFirstEvent starts a
// recorder on an empty server whose dumps and walks are an hour apart, so
// that only the watches on its directories can find a lock made after it
// started; then Curator and kazoo locks come under a new directory and
// beside a lock, and a lock lives two seconds. Each is found from its
// first contender's node, and the short one is in the recording with its
// holder and waiters, every join, grant and release.
func TestIntegrationRecordingHoldsNewLocksFromTheirFirstEvent(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	admin := srv.Connect(t)
	curator := peers.Start(t, peers.Curator, srv.Addr())
	kazoo := peers.Start(t, peers.Kazoo, srv.Addr())

	conn := watchtest.Dial(t, srv.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	path := filepath.Join(t.TempDir(), "locks.zklocks")
	w, err := recording.Create(path, recording.Options{Header: recording.Header{Server: srv.Addr()}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &live{state: model.NewState(), done: make(chan struct{}), seen: map[string]time.Time{}}
	cfg := zkwatch.WatchConfig{EnrichEvery: -1, DumpEvery: time.Hour, WalkEvery: time.Hour}
	go l.run(recording.Tee(zkwatch.Watch(ctx, conn, cfg).Events(), w))
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-l.done
		}
	}
	defer stop()
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if s.LastSync.IsZero() || !s.Discovery.WholeTree {
			return fmt.Sprintf("not synced with the whole tree watched: %+v", s.Discovery)
		}
		return ""
	}))

	// Under a new directory: four Curator contenders.
	first := curator.Acquire(t, "c1", "mutex", "/c/rec")
	curator.WaitHeld(t, "c1", holdTimeout)
	for _, id := range []string{"c2", "c3", "c4"} {
		curator.Acquire(t, id, "mutex", "/c/rec")
	}
	zktest.WaitUntil(t, holdTimeout, l.check(queue("/c/rec", 1, 3)))
	l.logLatency(t, admin, "/c/rec (Curator, new directory)", first.Node)

	// Beside it, in a directory that now holds a lock: kazoo.
	first = kazoo.Acquire(t, "k1", "lock", "/c/kazoo")
	kazoo.WaitHeld(t, "k1", holdTimeout)
	kazoo.Acquire(t, "k2", "lock", "/c/kazoo")
	zktest.WaitUntil(t, holdTimeout, l.check(queue("/c/kazoo", 1, 1)))
	l.logLatency(t, admin, "/c/kazoo (kazoo, beside a lock)", first.Node)

	// A lock that lives two seconds: a holder and two waiters, released in
	// turn.
	first = curator.Acquire(t, "s1", "mutex", "/c/short")
	curator.WaitHeld(t, "s1", holdTimeout)
	curator.Acquire(t, "s2", "mutex", "/c/short")
	curator.Acquire(t, "s3", "mutex", "/c/short")
	l.logLatency(t, admin, "/c/short (Curator, two seconds)", first.Node)
	time.Sleep(2 * time.Second) // the lock's life, not a wait for the watcher
	for i, id := range []string{"s1", "s2", "s3"} {
		curator.Release(t, id)
		if i < 2 {
			curator.WaitHeld(t, []string{"s2", "s3"}[i], holdTimeout)
		}
	}
	zktest.WaitUntil(t, holdTimeout, l.check(queue("/c/short", 0, 0)))
	stop()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	rec, err := recording.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tape := model.NewTape(rec.Events)
	queued := false
	for i := 1; i <= tape.Len() && !queued; i++ {
		queued = queue("/c/short", 1, 2)(tape.StateAt(i)) == ""
	}
	if !queued {
		t.Error("the recording never shows /c/short with its holder and both waiters")
	}
	final := tape.StateAt(tape.Len())
	for lock, want := range map[string]string{
		"/c/rec":   "joined granted joined joined joined",
		"/c/kazoo": "joined granted joined",
		"/c/short": "joined granted joined joined released granted released granted released",
	} {
		if got := changesOf(final, lock); got != want {
			t.Errorf("the recording's log of %s: %q, want %q", lock, got, want)
		}
	}
}

// queue checks that lock is known with holders and waiters.
func queue(lock string, holders, waiters int) func(*model.State) string {
	return func(s *model.State) string {
		l := s.Locks[lock]
		if l == nil || l.Holders() != holders || l.Waiters() != waiters {
			return fmt.Sprintf("%s: want %d holders and %d waiters", lock, holders, waiters)
		}
		return ""
	}
}

// changesOf is lock's event log, its changes in order.
func changesOf(s *model.State, lock string) string {
	var out []string
	for _, h := range s.History {
		if h.Lock == lock {
			out = append(out, string(h.Change))
		}
	}
	return strings.Join(out, " ")
}

// logLatency logs the time from the creation of a lock's first contender
// node (its ctime, by the server's clock on this machine) to the watcher's
// first event of the lock.
func (l *live) logLatency(t *testing.T, admin *zk.Conn, what, node string) {
	t.Helper()
	_, stat, err := admin.Get(node)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	lock := node[:strings.LastIndex(node, "/")]
	l.mu.Lock()
	seen := l.seen[lock]
	l.mu.Unlock()
	t.Logf("%s: first contender created → first event %v", what, seen.Sub(time.UnixMilli(stat.Ctime)).Round(time.Millisecond))
}
