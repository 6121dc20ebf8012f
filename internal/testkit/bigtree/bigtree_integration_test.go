//go:build !race

package bigtree_test

// This test drops the tree's connections while its sessions hold watches,
// so go-zookeeper re-registers them on reconnect and races with itself
// (Conn.recvLoop writes lastZxid at conn.go:849 while Conn.sendSetWatches
// reads it at conn.go:614): it runs without -race (make test's second
// invocation).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/bigtree"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationReconnectBuildThroughDrops builds a tree while every connection
// of its sessions is cut again and again, as a loaded machine's silent
// server cuts them, and checks that the tree is the one asked for: no
// node missing or made twice (each lock's contenders one a session, in
// the sessions' order), and every watch held.
func TestIntegrationReconnectBuildThroughDrops(t *testing.T) {
	zks := zktest.Start(t, zktest.WithConfig("forceSync=no"))
	proxy := zktest.NewProxy(t, zks.Addr())
	spec := bigtree.Spec{Plain: 5_000, Locks: 200, Contenders: 4, Services: 60, Stale: 3, ForeignWatches: 5_000}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	done := make(chan struct{})
	var wg sync.WaitGroup
	drops := 0
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(300 * time.Millisecond):
				proxy.Drop()
				drops++
			}
		}
	})
	tree, err := bigtree.Build(ctx, []string{proxy.Addr()}, spec, t.Logf)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatalf("build through %d dropped connections: %v", drops, err)
	}
	defer tree.Close()
	t.Logf("built through %d dropped connections", drops)
	if drops < 5 {
		t.Fatalf("only %d connections dropped: the build was not put to the test", drops)
	}

	c, _, err := zk.Connect([]string{zks.Addr()}, 10*time.Second, zk.WithLogger(quiet{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var owners [][]int64 // each lock's contenders' sessions, in queue order
	for _, l := range tree.LockPaths {
		names, _, err := c.Children(l)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(names, func(a, b string) int { return strings.Compare(a[len(a)-10:], b[len(b)-10:]) })
		var sessions []int64
		for _, n := range names {
			_, st, err := c.Get(l + "/" + n)
			if err != nil {
				t.Fatal(err)
			}
			sessions = append(sessions, st.EphemeralOwner)
		}
		owners = append(owners, sessions)
	}
	for i, s := range owners {
		if len(s) != spec.Contenders {
			t.Fatalf("%s has %d contenders, want %d", tree.LockPaths[i], len(s), spec.Contenders)
		}
		if !slices.Equal(s, owners[0]) || len(slices.Compact(slices.Clone(s))) != spec.Contenders {
			t.Fatalf("%s's contenders belong to sessions %x, the first lock's to %x: one a session, in the same order", tree.LockPaths[i], s, owners[0])
		}
	}
	services := 0
	dirs, _, err := c.Children("/services")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		names, _, err := c.Children("/services/" + d)
		if err != nil {
			t.Fatal(err)
		}
		services += len(names)
	}
	if services != spec.Services {
		t.Errorf("%d service instances, want %d", services, spec.Services)
	}
	_, st, err := c.Get("/kafka/brokers/topics")
	if err != nil {
		t.Fatal(err)
	}
	if topics := spec.Plain / 98; int(st.NumChildren) != topics {
		t.Errorf("%d topics, want %d", st.NumChildren, topics)
	}
	want := spec.Locks*(spec.Contenders-1) + spec.ForeignWatches
	if tree.Watches != want {
		t.Errorf("the tree says it holds %d watches, want %d", tree.Watches, want)
	}
	// A session whose connection the last drop cut sets its watches
	// again once it is back.
	zktest.WaitUntil(t, time.Minute, func() string {
		if n := zktest.WatchCount(t, zks.Addr()); n != want {
			return fmt.Sprintf("the server holds %d watches, want %d", n, want)
		}
		return ""
	})
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}
