package watch

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/procstat"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// The Anywhere benchmark: a new lock made in a new subtree of a tree too
// big to watch whole, found by the persistent recursive watch, against the
// old path (dump, or the walk where dump is refused) in the same run; the
// watcher's CPU and memory under foreign changes below its root; and its
// idle CPU and the watches it holds on the server.
const (
	anywhereLocks     = 200                   // new subtrees, each with a lock
	anywhereEvery     = 50 * time.Millisecond // between two of them
	anywhereChurnRate = 5000                  // foreign changes a second
	anywhereWindow    = 15 * time.Second      // each CPU window
	// anywherePlain is the plain znodes of the tree on the server as
	// shipped (srvr only, no AdminServer).
	anywherePlain = 30_000
)

// benchAnywhere measures both servers: the benchmark's own, which answers
// every word, and one as shipped.
func benchAnywhere(b *testing.B, env *benchEnv, r *benchReport) {
	for range b.N {
		anywhereLatency(b, env.zks.Addr(), "4lw", r)
		shipped := zktest.Start(b, zktest.WithFourLetterWords("srvr"), zktest.WithConfig("admin.enableServer=false"))
		buildPlainTree(b, shipped.Addr(), anywherePlain)
		anywhereLatency(b, shipped.Addr(), "srvr only", r)
		anywhereCost(b, env, r)
	}
}

// anywhereConfig watches the root as the UI does, reading every contender
// before the first sync so that the figures are the steady state's.
func anywhereConfig(persistent bool) zkwatch.WatchConfig {
	return zkwatch.WatchConfig{Roots: []string{benchRoot}, EnrichEvery: -1, PersistentWatchOff: !persistent}
}

// anywhereLatency times anywhereLocks new locks in new subtrees with the
// persistent watch and without it, on the server at addr.
func anywhereLatency(b *testing.B, addr, server string, r *benchReport) {
	actor := benchConnect(b, addr)
	lat := map[bool][]time.Duration{}
	for _, persistent := range []bool{true, false} {
		w := startAnywhere(b, addr, anywhereConfig(persistent))
		lat[persistent] = w.newLocks(b, actor, fmt.Sprintf("%v-%d", persistent, time.Now().UnixNano()), anywhereLocks, nil)
		w.stop()
	}
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", 0.5}, {"p99", 0.99}} {
		ours, old := quantile(lat[true], q.q), quantile(lat[false], q.q)
		row := benchRow{metric: fmt.Sprintf("new lock in a new subtree (%s), %s of %d", server, q.name, anywhereLocks),
			ours: fmtDur(ours), base: fmtDur(old), ratio: fmt.Sprintf("%.3f×", float64(ours)/float64(old))}
		if q.q == 0.99 {
			row.target, row.verdict = "≤ 1s", verdict(ours <= time.Second)
		}
		r.add(row)
	}
}

// anywhereCost measures the watcher's CPU and memory: idle, and under
// foreign changes below its root, with the persistent watch and without.
func anywhereCost(b *testing.B, env *benchEnv, r *benchReport) {
	addr := env.zks.Addr()
	churn := newForeignChurn(b, addr)
	pid := os.Getpid()
	window := func(run func()) time.Duration {
		before := procstat.CPU(b, pid)
		run()
		return procstat.CPU(b, pid) - before
	}
	churnAlone := window(func() { churn.run(anywhereWindow) })
	idle, busy, watches, rss := map[bool]time.Duration{}, map[bool]time.Duration{}, map[bool]int{}, map[bool]uint64{}
	var churnLat []time.Duration
	actor := benchConnect(b, addr)
	for _, persistent := range []bool{false, true} {
		w := startAnywhere(b, addr, anywhereConfig(persistent))
		watches[persistent] = zktest.WatchCount(b, addr)
		idle[persistent] = window(func() { time.Sleep(anywhereWindow) })
		runtime.GC()
		idleRSS := procstat.RSS(b, pid)
		busy[persistent] = window(func() {
			done := make(chan struct{})
			go func() { defer close(done); churn.run(anywhereWindow) }()
			if persistent {
				churnLat = w.newLocks(b, actor, fmt.Sprintf("churn-%d", time.Now().UnixNano()), 50, done)
			}
			<-done
		})
		rss[persistent] = procstat.RSS(b, pid) - min(idleRSS, procstat.RSS(b, pid))
		if persistent {
			d := w.w.Discovery().Persistent
			b.Logf("persistent watch under churn: %d notifications in the last second, %s taking them; %d overflows", d.Rate, d.Busy, d.Overflows)
		}
		w.stop()
	}
	share := func(d time.Duration) string { return fmt.Sprintf("%.2f %%", 100*d.Seconds()/anywhereWindow.Seconds()) }
	r.add(benchRow{metric: "idle watcher's CPU, of a core", ours: share(idle[true]), base: share(idle[false]),
		target: "≤ 1.00 %", verdict: verdict(idle[true].Seconds()/anywhereWindow.Seconds() <= 0.01)})
	r.add(benchRow{metric: "watches on the server, whole run's sessions", ours: fmt.Sprint(watches[true]), base: fmt.Sprint(watches[false]),
		ratio: fmt.Sprintf("+%d", watches[true]-watches[false]), target: "+1 (one root)", verdict: verdict(watches[true]-watches[false] == 1)})
	ours, old := max(busy[true]-churnAlone, 0), max(busy[false]-churnAlone, 0)
	r.add(benchRow{metric: fmt.Sprintf("CPU for %d foreign changes/s, of a core", anywhereChurnRate), ours: share(ours), base: share(old),
		target: "≤ 5.00 %", verdict: verdict(ours.Seconds()/anywhereWindow.Seconds() <= 0.05)})
	r.add(benchRow{metric: "RSS growth under the changes, from idle", ours: fmt.Sprintf("%.1f MB", float64(rss[true])/1e6),
		base: fmt.Sprintf("%.1f MB", float64(rss[false])/1e6), target: "≤ 10 MB", verdict: verdict(rss[true] <= 10e6)})
	p99 := quantile(churnLat, 0.99)
	r.add(benchRow{metric: fmt.Sprintf("new lock in a new subtree under the changes, p99 of %d", len(churnLat)), ours: fmtDur(p99),
		target: "≤ 1s", verdict: verdict(p99 <= time.Second)})
	b.Logf("foreign changes alone took %s of CPU in %s", churnAlone, anywhereWindow)
}

// anywhereWatcher is a watcher of the benchmark with the first time each
// lock was reported.
type anywhereWatcher struct {
	conn   *zkwatch.Conn
	w      *zkwatch.Watcher
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	seen   map[string]time.Time
}

// startAnywhere watches addr with cfg and returns once the first walk has
// ended and, unless it is off, the persistent watch is live.
func startAnywhere(b *testing.B, addr string, cfg zkwatch.WatchConfig) *anywhereWatcher {
	b.Helper()
	aw := &anywhereWatcher{conn: benchDial(b, addr), done: make(chan struct{}), seen: map[string]time.Time{}}
	var ctx context.Context
	ctx, aw.cancel = context.WithCancel(context.Background())
	aw.w = zkwatch.Watch(ctx, aw.conn, cfg)
	go func() {
		defer close(aw.done)
		for ev := range aw.w.Events() {
			if ev.Kind == zkwatch.EventLock {
				aw.mu.Lock()
				if _, ok := aw.seen[ev.Path]; !ok {
					aw.seen[ev.Path] = time.Now()
				}
				aw.mu.Unlock()
			}
		}
	}()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		d := aw.w.Discovery()
		if d.Complete && (cfg.PersistentWatchOff || d.Persistent.Live) {
			return aw
		}
		if time.Now().After(deadline) {
			b.Fatalf("the watcher never settled: %+v", d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// newLocks makes n locks, each in a new subtree of the root, anywhereEvery
// apart (or until stop closes), and returns each one's time from the
// request that created its subtree to its first event, sorted.
func (aw *anywhereWatcher) newLocks(b *testing.B, actor *zk.Conn, tag string, n int, stop <-chan struct{}) []time.Duration {
	b.Helper()
	made := map[string]time.Time{}
	tick := time.NewTicker(anywhereEvery)
	defer tick.Stop()
	for i := range n {
		select {
		case <-stop:
		case <-tick.C:
		}
		sub := fmt.Sprintf("%s/new-%s-%03d", benchRoot, tag, i)
		lock := sub + "/app/lock"
		start := time.Now()
		for _, p := range []string{sub, sub + "/app", lock} {
			if _, err := actor.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := newContender(actor, lock); err != nil {
			b.Fatal(err)
		}
		made[lock] = start
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		aw.mu.Lock()
		var out []time.Duration
		for p, at := range made {
			if seen, ok := aw.seen[p]; ok {
				out = append(out, seen.Sub(at))
			}
		}
		aw.mu.Unlock()
		if len(out) == len(made) {
			slices.Sort(out)
			return out
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d new locks never reported", len(made)-len(out), len(made))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (aw *anywhereWatcher) stop() {
	aw.cancel()
	<-aw.done
	aw.conn.Close()
}

// foreignChurn makes changes below the root that no lock is part of: a
// plain node created, its data set, and deleted, over and over.
type foreignChurn struct {
	conns []*zk.Conn
	next  atomic.Int64
}

func newForeignChurn(b *testing.B, addr string) *foreignChurn {
	f := &foreignChurn{}
	for range 2 {
		f.conns = append(f.conns, benchConnect(b, addr))
	}
	if _, err := f.conns[0].Create(benchRoot+"/foreign", nil, 0, zk.WorldACL(zk.PermAll)); err != nil && err != zk.ErrNodeExists {
		b.Fatal(err)
	}
	return f
}

// run makes anywhereChurnRate changes a second for d, in batches every
// 10 ms, each change its own request.
func (f *foreignChurn) run(d time.Duration) {
	const every = 10 * time.Millisecond
	per := anywhereChurnRate * int(every) / int(time.Second)
	tick := time.NewTicker(every)
	defer tick.Stop()
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for time.Now().Before(end) {
		<-tick.C
		for i := range per {
			c := f.conns[i%len(f.conns)]
			n := f.next.Add(1)
			p := fmt.Sprintf("%s/foreign/item-%d", benchRoot, n%1000)
			wg.Go(func() {
				switch n % 3 {
				case 0:
					c.Create(p, []byte("x"), 0, zk.WorldACL(zk.PermAll))
				case 1:
					c.Set(p, []byte("y"), -1)
				default:
					c.Delete(p, -1)
				}
			})
		}
	}
	wg.Wait()
}

// buildPlainTree creates n plain znodes under the benchmark's root, in
// directories of 100, and one lock, on the server at addr.
func buildPlainTree(b *testing.B, addr string, n int) {
	admin := benchConnect(b, addr)
	paths := []string{benchRoot}
	for i := range n / 100 {
		paths = append(paths, fmt.Sprintf("%s/d%03d", benchRoot, i))
	}
	for _, p := range paths {
		if _, err := admin.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			b.Fatal(err)
		}
	}
	var leaves []string
	for i := range n {
		leaves = append(leaves, fmt.Sprintf("%s/d%03d/n%05d", benchRoot, i/100, i))
	}
	pipeline(b, admin, leaves, func(c *zk.Conn, p string) error {
		_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
		return err
	})
	if _, err := admin.Create(benchRoot+"/d000/lock", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		b.Fatal(err)
	}
	if _, err := newContender(admin, benchRoot+"/d000/lock"); err != nil {
		b.Fatal(err)
	}
}
