package watch

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// Targets of the discovery and memory benchmarks.
const (
	// maxDiscoveryRatio: discovery may take at most this many times the
	// floor's walk.
	maxDiscoveryRatio = 1.3
	// maxBytesPerZnode bounds the heap the watcher keeps per tracked znode.
	maxBytesPerZnode = 1024
	// discoveryRounds: each iteration times the floor and the watcher this
	// many times, one right after the other, alternating which goes first.
	// The ratio is the median of the rounds' ratios: a round's two walks
	// see the same load from elsewhere on the machine.
	discoveryRounds = 3
)

// benchDiscovery times the watcher's first sync of the whole tree against
// the floor: the same reads issued by a minimal go-zookeeper loop at the
// same concurrency.
func benchDiscovery(b *testing.B, env *benchEnv, r *benchReport) {
	floorWalk(b, env) // warm the server's read path; not counted
	var ours, floor []time.Duration
	var ratios []float64
	for range b.N {
		for round := range discoveryRounds {
			var o, f time.Duration
			if round%2 == 0 {
				f = floorWalk(b, env)
				o = watcherWalk(b, env)
			} else {
				o = watcherWalk(b, env)
				f = floorWalk(b, env)
			}
			ours, floor = append(ours, o), append(floor, f)
			ratios = append(ratios, float64(o)/float64(f))
		}
	}
	b.Logf("rounds: watcher %s; floor %s", joinDurs(ours), joinDurs(floor))
	o, f := median(ours), median(floor)
	slices.Sort(ratios)
	ratio := ratios[(len(ratios)-1)/2]
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ms(o), "ms/discovery")
	b.ReportMetric(ms(f), "floor-ms/discovery")
	b.ReportMetric(ratio, "ratio")
	r.add(benchRow{metric: fmt.Sprintf("discovery, median of %d paired rounds", len(ours)), ours: fmtDur(o), base: fmtDur(f),
		ratio: fmt.Sprintf("%.2f×", ratio), target: fmt.Sprintf("≤ %.2f×", maxDiscoveryRatio), verdict: verdict(ratio <= maxDiscoveryRatio)})
}

// floorWalk reads the tree as the watcher must, with go-zookeeper alone:
// the children of the root, then, from benchConcurrency workers, each
// parent's children and the data of each contender. No watches, no
// analysis. It returns how long the reads took, from a fresh session.
func floorWalk(tb testing.TB, env *benchEnv) time.Duration {
	tb.Helper()
	c := benchConnect(tb, env.zks.Addr())
	defer c.Close()
	start := time.Now()
	names, _, err := c.Children(benchRoot)
	if err != nil {
		tb.Fatal(err)
	}
	var read atomic.Int64
	var failed atomic.Value
	work := make(chan string)
	var wg sync.WaitGroup
	for range benchConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				kids, _, err := c.Children(p)
				if err != nil {
					failed.Store(err)
					continue
				}
				read.Add(1)
				for _, k := range kids {
					if _, _, err := c.Get(p + "/" + k); err != nil {
						failed.Store(err)
						continue
					}
					read.Add(1)
				}
			}
		}()
	}
	for _, n := range names {
		work <- benchRoot + "/" + n
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(start)
	if err, _ := failed.Load().(error); err != nil {
		tb.Fatalf("floor walk: %v", err)
	}
	if n := int(read.Load()); n != env.znodes {
		tb.Fatalf("floor walk read %d znodes, want %d", n, env.znodes)
	}
	return elapsed
}

// watcherWalk times a fresh watcher from Watch to EventSynced, with its
// events read as they come, and checks that it found the whole tree.
func watcherWalk(tb testing.TB, env *benchEnv) time.Duration {
	tb.Helper()
	// A lock may be sent again before the sync ends (a contender's data
	// read after its first event): each lock counts once, as last sent.
	participants := make(map[string]int, benchParents)
	var start time.Time
	lw := startWatcherAt(tb, env, &start, func(ev zkwatch.Event, _ time.Time) {
		if ev.Kind == zkwatch.EventLock {
			participants[ev.Lock.Path] = len(ev.Lock.Participants)
		}
	})
	synced := lw.awaitSync(tb)
	lw.stop()
	locks, contenders := len(participants), 0
	for _, n := range participants {
		contenders += n
	}
	if locks != benchParents || contenders != benchParents*benchContenders {
		tb.Fatalf("watcher found %d locks with %d contenders, want %d with %d",
			locks, contenders, benchParents, benchParents*benchContenders)
	}
	return synced.Sub(start)
}

// startWatcherAt is startWatcher with the moment Watch was called, after
// the session is established, stored in start.
func startWatcherAt(tb testing.TB, env *benchEnv, start *time.Time, on func(zkwatch.Event, time.Time)) *liveWatcher {
	tb.Helper()
	return startWatcherHook(tb, env, func() { *start = time.Now() }, on)
}

// benchMemory measures the heap the watcher holds once it has discovered
// the tree, per tracked znode, with the watcher still running.
func benchMemory(b *testing.B, env *benchEnv, r *benchReport) {
	var perZnode []float64
	var goroutines, stack int
	for range b.N {
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g0 := runtime.NumGoroutine()
		lw := startWatcher(b, env, nil)
		lw.awaitSettled(b)
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		goroutines = runtime.NumGoroutine() - g0
		stack = int(after.StackInuse) - int(before.StackInuse)
		runtime.KeepAlive(lw.w)
		perZnode = append(perZnode, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(env.znodes))
		lw.stop()
	}
	bytes := perZnode[len(perZnode)-1]
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(bytes, "B/znode")
	b.ReportMetric(float64(goroutines), "goroutines")
	r.add(benchRow{metric: "heap per tracked znode", ours: fmt.Sprintf("%.0f B", bytes),
		target: fmt.Sprintf("< %d B", maxBytesPerZnode), verdict: verdict(bytes < maxBytesPerZnode)})
	r.add(benchRow{metric: "goroutines kept after discovery", ours: fmt.Sprint(goroutines)})
	r.add(benchRow{metric: "goroutine stacks per tracked znode", ours: fmt.Sprintf("%.0f B", float64(stack)/float64(env.znodes))})
}
