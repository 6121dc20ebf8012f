package hub

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// Every viewer of a cluster reads the pictures of one watcher on one
// connection, dialled at the first join; the watcher stops Linger after
// the last feed closed, and a join after that dials again.
func TestIntegrationClustersShareOneWatcher(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	var mu sync.Mutex
	dialled := 0
	dial := func(ctx context.Context, name string) (Cluster, error) {
		target, err := zkwatch.ParseConnectString(zks.Addr())
		if err != nil {
			return Cluster{}, err
		}
		conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
		if err != nil {
			return Cluster{}, err
		}
		mu.Lock()
		dialled++
		mu.Unlock()
		return Cluster{Conn: conn, Watch: zkwatch.WatchConfig{Roots: []string{"/hub"}}, Timeout: 10 * time.Second}, nil
	}
	dials := func() int {
		mu.Lock()
		defer mu.Unlock()
		return dialled
	}
	var logged strings.Builder
	var logMu sync.Mutex
	c := NewClusters(dial, 100*time.Millisecond, func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(&logged, format+"\n", args...)
	})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	holder := zk.NewLock(zks.Connect(t), "/hub/orders", zk.WorldACL(zk.PermAll))
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	a, err := c.Join(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Join(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*Feed{"a": a, "b": b} {
		zktest.WaitUntil(t, 30*time.Second, func() string {
			if l := f.State().Locks["/hub/orders"]; l == nil || l.Holders() != 1 {
				return "feed " + name + " never showed /hub/orders held"
			}
			return ""
		})
	}
	if n := dials(); n != 1 || !c.IsRunning("") || len(c.Running()) != 1 {
		t.Fatalf("two feeds: dialled %d times, running %v", n, c.Running())
	}
	if a.Board() != nil {
		t.Fatal("a board on a cluster without the two-person rule")
	}

	// A change reaches every feed as a newer picture.
	if err := holder.Unlock(); err != nil {
		t.Fatal(err)
	}
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if l := b.State().Locks["/hub/orders"]; l != nil && l.Holders() != 0 {
			return "feed b still shows /hub/orders held"
		}
		return ""
	})

	a.Close()
	time.Sleep(300 * time.Millisecond) // thrice the linger: b still holds the watcher
	if !c.IsRunning("") {
		t.Fatal("the watcher stopped with a feed still on it")
	}
	b.Close()
	// The watcher is taken off the running list before its stop is
	// logged: wait for both.
	stopped := "stopped watching the cluster: no session for 100ms\n"
	zktest.WaitUntil(t, 30*time.Second, func() string {
		logMu.Lock()
		defer logMu.Unlock()
		switch {
		case c.IsRunning(""):
			return "the watcher still runs after its last feed closed"
		case !strings.Contains(logged.String(), stopped):
			return "the log does not say the watcher stopped:\n" + logged.String()
		}
		return ""
	})
	drained := make(chan struct{})
	go func() {
		for range b.Changed() { // a notice not read yet, then the close
		}
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("a closed feed's Changed is not closed")
	}

	again, err := c.Join(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n := dials(); n != 2 {
		t.Fatalf("a join after the stop dialled %d times in all, want 2", n)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if got := logged.String(); got != "watching the cluster\n"+stopped+"watching the cluster\n" {
		t.Fatalf("the log:\n%s", got)
	}
}

// A cluster that cannot be dialled fails the join with the context's
// name, and is tried again at the next.
func TestClustersJoinFailsWithTheDial(t *testing.T) {
	tries := 0
	c := NewClusters(func(context.Context, string) (Cluster, error) {
		tries++
		return Cluster{}, context.DeadlineExceeded
	}, time.Minute, nil)
	defer c.Close()
	for range 2 {
		if _, err := c.Join(context.Background(), "east"); err == nil || err.Error() != "context east: context deadline exceeded" {
			t.Fatalf("join: %v", err)
		}
	}
	if tries != 2 || c.IsRunning("east") {
		t.Fatalf("dialled %d times, running %v", tries, c.Running())
	}
}
