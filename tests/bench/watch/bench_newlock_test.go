package watch

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkNewLockFound measures how soon the watcher reports a lock made
// after it started: from the request that creates the lock's parent until
// the watcher's first event of the lock, whose parent and contender
// another session creates one after the other, as Curator and kazoo do.
// BesideALock: a tree found as a big one (a walk burst of 2 reads), with
// dumps and walks an hour apart, so that the lock directory's watch is
// the only way; SmallTree: a tree watched whole. It reports p50 and p99
// over 200 locks (`go test ./tests/bench/watch -run '^$' -bench NewLockFound`).
func BenchmarkNewLockFound(b *testing.B) {
	zks := zktest.Start(b)
	actor := benchConnect(b, zks.Addr())
	for _, p := range []string{"/nl", "/nl/locks", "/nl/locks/first", "/nl/small"} {
		if _, err := actor.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := newContender(actor, "/nl/locks/first"); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		cfg  zkwatch.WatchConfig
		dir  string
	}{
		{"BesideALock", zkwatch.WatchConfig{Roots: []string{"/nl/locks"}, EnrichEvery: -1, WalkBurst: 2, DumpEvery: time.Hour, WalkEvery: time.Hour}, "/nl/locks"},
		{"SmallTree", zkwatch.WatchConfig{Roots: []string{"/nl/small"}, EnrichEvery: -1}, "/nl/small"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				lat := newLockLatency(b, zks.Addr(), actor, bc.cfg, bc.dir, 200)
				b.ReportMetric(float64(quantile(lat, 0.5))/1e6, "p50-ms")
				b.ReportMetric(float64(quantile(lat, 0.99))/1e6, "p99-ms")
				b.ReportMetric(float64(slices.Max(lat))/1e6, "max-ms")
			}
		})
	}
}

// newLockLatency watches with cfg and makes n locks in dir, one after the
// other, returning each one's time to its first event, sorted.
func newLockLatency(b *testing.B, addr string, actor *zk.Conn, cfg zkwatch.WatchConfig, dir string, n int) []time.Duration {
	b.Helper()
	conn := benchDial(b, addr)
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := zkwatch.Watch(ctx, conn, cfg)
	firsts := make(chan string, 16)
	settled := make(chan struct{})
	go func() {
		seen := map[string]bool{}
		for ev := range w.Events() {
			if ev.Kind == zkwatch.EventSynced || ev.Kind == zkwatch.EventDiscovery {
				if d := w.Discovery(); d.Complete && (d.WatchedDirs > 0 || d.WholeTree) {
					select {
					case <-settled:
					default:
						close(settled)
					}
				}
			}
			if ev.Kind == zkwatch.EventLock && !seen[ev.Path] {
				seen[ev.Path] = true
				firsts <- ev.Path
			}
		}
	}()
	select {
	case <-settled:
	case <-time.After(time.Minute):
		b.Fatal("the watcher never watched a directory")
	}
	drain(firsts)
	b.ResetTimer()
	var out []time.Duration
	for i := range n {
		p := fmt.Sprintf("%s/new-%d-%04d", dir, time.Now().UnixNano(), i)
		start := time.Now()
		if _, err := actor.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			b.Fatal(err)
		}
		if _, err := newContender(actor, p); err != nil {
			b.Fatal(err)
		}
		for got := ""; got != p; {
			select {
			case got = <-firsts:
			case <-time.After(30 * time.Second):
				b.Fatalf("%s never reported", p)
			}
		}
		out = append(out, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(out)
	return out
}

// drain empties ch of what it holds now.
func drain(ch chan string) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}
