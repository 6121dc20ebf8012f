package watch

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// The benchmark's tree: benchParents lock parents under benchRoot, each with
// benchContenders ephemeral sequential contenders named like go-zookeeper's
// zk.Lock names them (_c_<32 hex>-lock-<seq>), every contender of a parent
// owned by a different session, as real contenders are.
const (
	benchRoot        = "/bench"
	benchParents     = 10_000
	benchContenders  = 6
	benchConcurrency = 64 // WatchConfig.Concurrency's default, used by the floor too
	// benchData is each contender's data: an address, as Curator writes.
	benchData = "10.0.0.7"
)

// benchConfig is what every benchmark watches with: the whole tree, no
// four-letter words, contenders reported before they are read as the UI
// has them (ReadLater), everything else at its defaults.
func benchConfig() zkwatch.WatchConfig {
	return zkwatch.WatchConfig{Roots: []string{benchRoot}, EnrichEvery: -1, ReadLater: true}
}

// benchEnv is one ZooKeeper holding the benchmark's tree, built once per
// BenchmarkWatch run and shared by its sub-benchmarks.
type benchEnv struct {
	zks     *zktest.Server
	parents []string
	// owners are the sessions that own the contenders; they stay open for
	// the whole run, or the contenders would go with them.
	owners []*zk.Conn
	// actor is another session that makes the changes the benchmarks time.
	actor *zk.Conn
	// znodes is what discovery tracks: every parent and every contender.
	znodes int
	// book is the rule book watchers read locks by; nil: the built-in
	// entries alone.
	book *lockcore.Book
}

// BenchmarkWatch measures the watcher against ZooKeeper itself, on one
// server and one machine, in one run: discovery against a minimal
// go-zookeeper walk, memory per tracked znode, change-to-event latency
// against a raw children watch, sustained churn, and a new lock anywhere
// with the persistent recursive watch against dump and walk. It prints the figures
// as a table when its sub-benchmarks are done. Run it with
// `make bench-watch`.
func BenchmarkWatch(b *testing.B) {
	env := buildBenchTree(b)
	var r benchReport
	b.Run("Discovery", func(b *testing.B) { benchDiscovery(b, env, &r) })
	b.Run("Memory", func(b *testing.B) { benchMemory(b, env, &r) })
	b.Run("Latency", func(b *testing.B) { benchLatency(b, env, &r) })
	b.Run("Churn", func(b *testing.B) { benchChurn(b, env, &r) })
	b.Run("RuleBook", func(b *testing.B) { benchRuleBook(b, env, &r) })
	b.Run("Anywhere", func(b *testing.B) { benchAnywhere(b, env, &r) })
	r.print(os.Stdout, env)
}

// buildBenchTree starts ZooKeeper and creates the tree, pipelining creates
// from many goroutines on a few sessions. tb's Cleanup stops the server.
func buildBenchTree(tb testing.TB) *benchEnv {
	tb.Helper()
	start := time.Now()
	// The server's default heap (256 MiB) is tight for 70,000 znodes and
	// their watches.
	zks := zktest.Start(tb, zktest.WithJVMFlags("-Xms1g", "-Xmx1g"))
	env := &benchEnv{zks: zks, znodes: benchParents * (1 + benchContenders)}
	admin := benchConnect(tb, zks.Addr())
	env.actor = benchConnect(tb, zks.Addr())
	if _, err := admin.Create(benchRoot, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		tb.Fatalf("create %s: %v", benchRoot, err)
	}
	env.parents = make([]string, benchParents)
	for i := range env.parents {
		env.parents[i] = fmt.Sprintf("%s/p%05d", benchRoot, i)
	}
	pipeline(tb, admin, env.parents, func(c *zk.Conn, p string) error {
		_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
		return err
	})
	var wg sync.WaitGroup
	errs := make(chan error, benchContenders)
	for range benchContenders {
		owner := benchConnect(tb, zks.Addr())
		env.owners = append(env.owners, owner)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- pipelineErr(owner, env.parents, func(c *zk.Conn, p string) error {
				_, err := newContender(c, p)
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	tb.Logf("built %d parents × %d contenders in %v", benchParents, benchContenders, time.Since(start).Round(time.Millisecond))
	return env
}

// newContender creates one contender in parent as go-zookeeper's zk.Lock
// does, returning its name.
func newContender(c *zk.Conn, parent string) (string, error) {
	p, err := c.CreateProtectedEphemeralSequential(parent+"/lock-", []byte(benchData), zk.WorldACL(zk.PermAll))
	if err != nil {
		return "", fmt.Errorf("create contender in %s: %w", parent, err)
	}
	return p[len(parent)+1:], nil
}

// pipeline runs do for every path from many goroutines on one session,
// which go-zookeeper pipelines on its connection.
func pipeline(tb testing.TB, c *zk.Conn, paths []string, do func(*zk.Conn, string) error) {
	tb.Helper()
	if err := pipelineErr(c, paths, do); err != nil {
		tb.Fatal(err)
	}
}

func pipelineErr(c *zk.Conn, paths []string, do func(*zk.Conn, string) error) error {
	const goroutines = 64
	work := make(chan string)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if err := do(c, p); err != nil {
					once.Do(func() { first = err })
				}
			}
		}()
	}
	for _, p := range paths {
		work <- p
	}
	close(work)
	wg.Wait()
	return first
}

// benchConnect opens a quiet go-zookeeper session (zktest's Connect logs
// every connection line, which would interleave with the benchmark's
// output) and closes it at tb's Cleanup.
func benchConnect(tb testing.TB, addr string) *zk.Conn {
	tb.Helper()
	c, events, err := zk.Connect([]string{addr}, 10*time.Second, zk.WithLogger(quietLogger{}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	deadline := time.After(15 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				go func() {
					for range events {
					}
				}()
				return c
			}
		case <-deadline:
			tb.Fatalf("no session with %s", addr)
		}
	}
}

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}

// benchDial opens the watcher's own session.
func benchDial(tb testing.TB, addr string) *zkwatch.Conn {
	tb.Helper()
	target, err := zkwatch.ParseConnectString(addr)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		tb.Fatal(err)
	}
	return conn
}

// liveWatcher is a watcher over the benchmark's tree with its events
// handed to a callback as they come, each stamped with when it arrived.
type liveWatcher struct {
	conn   *zkwatch.Conn
	w      *zkwatch.Watcher
	cancel context.CancelFunc
	done   chan struct{}
	synced chan time.Time
}

// startWatcher dials, watches the tree and calls on for every event with
// its arrival time, from one goroutine. Errors and denials fail tb.
func startWatcher(tb testing.TB, env *benchEnv, on func(ev zkwatch.Event, at time.Time)) *liveWatcher {
	tb.Helper()
	return startWatcherHook(tb, env, nil, on)
}

// startWatcherHook is startWatcher calling beforeWatch, if not nil, once
// the session is established, just before Watch.
func startWatcherHook(tb testing.TB, env *benchEnv, beforeWatch func(), on func(ev zkwatch.Event, at time.Time)) *liveWatcher {
	tb.Helper()
	lw := &liveWatcher{conn: benchDial(tb, env.zks.Addr()), done: make(chan struct{}), synced: make(chan time.Time, 1)}
	var ctx context.Context
	ctx, lw.cancel = context.WithCancel(context.Background())
	if beforeWatch != nil {
		beforeWatch()
	}
	cfg := benchConfig()
	cfg.Analysis.Book = env.book
	lw.w = zkwatch.Watch(ctx, lw.conn, cfg)
	go func() {
		defer close(lw.done)
		for ev := range lw.w.Events() {
			at := time.Now()
			switch ev.Kind {
			case zkwatch.EventSynced:
				select {
				case lw.synced <- at:
				default:
				}
			case zkwatch.EventError, zkwatch.EventDenied:
				tb.Errorf("watcher: %v", ev.Err)
			}
			if on != nil {
				on(ev, at)
			}
		}
	}()
	return lw
}

// awaitSync waits for the first EventSynced and returns when it came.
func (lw *liveWatcher) awaitSync(tb testing.TB) time.Time {
	tb.Helper()
	select {
	case at := <-lw.synced:
		return at
	case <-time.After(5 * time.Minute):
		tb.Fatal("the watcher never synced")
		return time.Time{}
	}
}

// awaitSettled waits for the first sync and then for every contender it
// reported before reading to be read (ReadLater): the steady state the
// memory, latency and churn figures are about, not the half minute after
// a start when the watcher reads the contenders at the walk's rate.
func (lw *liveWatcher) awaitSettled(tb testing.TB) {
	tb.Helper()
	lw.awaitSync(tb)
	deadline := time.Now().Add(5 * time.Minute)
	for lw.w.Unread() > 0 {
		if time.Now().After(deadline) {
			tb.Fatalf("%d contenders still not read after 5 minutes", lw.w.Unread())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the watcher and its session.
func (lw *liveWatcher) stop() {
	lw.cancel()
	<-lw.done
	lw.conn.Close()
}
