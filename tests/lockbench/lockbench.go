package lockbench

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-zookeeper/zk"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// Client names a lock client under test.
type Client string

// The clients Run can drive.
const (
	Ours    Client = "zklocks" // lockclient.Acquire / Held.Release, in process
	GoZk    Client = "go-zk"   // go-zookeeper zk.Lock, in process
	Curator Client = "curator" // Apache Curator InterProcessMutex (JVM)
	Kazoo   Client = "kazoo"   // kazoo Lock (Python)
	// OursSASL is Ours on connections that authenticate by SASL
	// DIGEST-MD5 through Config.Dialer (zkwatch.AuthDialer), as zklocks
	// connects to a secured cluster.
	OursSASL Client = "zklocks+sasl"
)

// Clients lists every client, ours first.
var Clients = []Client{Ours, GoZk, Curator, Kazoo}

// SessionTimeout is what every contender asks for. ZooKeeper caps it at the
// server's maxSessionTimeout (20 ticks unless configured), so a benchmark
// server should allow it: the longer the session, the rarer the pings that
// zk_packets_received also counts (go-zookeeper pings every third of the
// timeout; Java and kazoo only when idle for a third).
const SessionTimeout = 120 * time.Second

// Config is one measurement: Contenders contenders of Client on one lock.
type Config struct {
	Client     Client
	Contenders int
	// Addr is the ZooKeeper server, host:port; every contender connects
	// to it alone, and its mntr counters are read.
	Addr string
	// Path is the lock parent; it should be new for each Config.
	Path string
	// Warmup runs the loops before the window opens (JIT, connection
	// pools, a queue in steady state); Window is what is measured.
	Warmup, Window time.Duration
	// Until, when above zero, ends the window by progress instead of by
	// Window: once every contender has acquired Until times since it
	// opened (at most one of each contender's may have returned just
	// before the window's edge, so each has at least Until-1 inside it).
	// Window is then ignored, and the run fails when no contender
	// acquires for Stall, however long the window has lasted: a loaded
	// machine slows the loops, a stuck one stops them.
	Until int
	// Stall bounds a window that ends by Until; DefaultStall when zero.
	Stall time.Duration
	// Logf, when set, gets the clients' log lines.
	Logf func(format string, args ...any)
	// Dial wraps the plain TCP dialer of each in-process contender's
	// connection (OursSASL's authenticates through it: zkwatch.AuthDialer);
	// nil dials plain TCP.
	Dial func(base zk.Dialer) zk.Dialer
}

// Run measures cfg. It returns an error when a contender fails or the
// server's counters cannot be read; a broken mutual exclusion is not an
// error but is counted in Result.Overlaps. Cancelling ctx abandons the run.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Contenders < 1 || (cfg.Window <= 0 && cfg.Until <= 0) {
		return Result{}, errors.New("lockbench: need at least one contender and a window")
	}
	if cfg.Stall <= 0 {
		cfg.Stall = DefaultStall
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	d, err := newDriver(cfg)
	if err != nil {
		return Result{}, err
	}
	defer d.close()
	if err := d.start(ctx); err != nil {
		return Result{}, fmt.Errorf("lockbench: %s: start %d contenders: %w", cfg.Client, cfg.Contenders, err)
	}
	// Nothing moves yet: the start of the run's Tally.
	first, err := sample(ctx, cfg.Addr, d)
	if err != nil {
		return Result{}, err
	}
	if err := d.begin(); err != nil {
		return Result{}, fmt.Errorf("lockbench: %s: begin: %w", cfg.Client, err)
	}
	if err := sleep(ctx, cfg.Warmup); err != nil {
		return Result{}, err
	}
	open, err := sample(ctx, cfg.Addr, d)
	if err != nil {
		return Result{}, err
	}
	if err := waitWindow(ctx, cfg, d); err != nil {
		return Result{}, fmt.Errorf("lockbench: %s: %w", cfg.Client, err)
	}
	shut, err := sample(ctx, cfg.Addr, d)
	if err != nil {
		return Result{}, err
	}
	holds, disconnects, err := d.finish(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("lockbench: %s: stop: %w", cfg.Client, err)
	}
	// Nothing moves any more: the end of the run's Tally.
	last, err := sample(ctx, cfg.Addr, d)
	if err != nil {
		return Result{}, err
	}
	r := analyze(cfg, holds, open, shut)
	r.Disconnects = disconnects
	r.Tally = d.tally(holds)
	r.Tally.Notifications = last.counters.notifications() - first.counters.notifications()
	if in, ok := d.(*inProcess); ok {
		r.ConnectRequests, r.Connects = in.connectWrites.Load(), int64(len(in.contenders))
	}
	return r, nil
}

// snapshot is what is read at each edge of the window.
type snapshot struct {
	at       int64 // epoch µs, the middle of the mntr exchange
	counters counters
	seen     observed
}

// sample reads the window's edge: the server's counters, the time (the
// middle of the mntr exchange, which takes milliseconds on a busy server),
// and what the in-process connections have seen.
func sample(ctx context.Context, addr string, d driver) (snapshot, error) {
	before := nowMicros()
	s := snapshot{seen: d.observe()}
	reply, err := words.FourLetter(ctx, addr, "mntr")
	if err != nil {
		return s, fmt.Errorf("lockbench: %w", err)
	}
	s.at = before + (nowMicros()-before)/2
	s.counters, err = parseMntr(reply)
	return s, err
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// nowMicros is the wall clock in epoch microseconds: the clock the Java and
// Python loops read too.
func nowMicros() int64 { return time.Now().UnixMicro() }

// driver runs one Config's contenders.
type driver interface {
	// start connects every contender, each in its own session, and returns
	// once all can loop.
	start(ctx context.Context) error
	// begin starts every loop.
	begin() error
	// progress is how many times each contender has acquired so far,
	// by contender, as the loops run.
	progress(ctx context.Context) ([]int64, error)
	// observe is what the contenders' connections have seen so far;
	// nothing for clients in other processes.
	observe() observed
	// tally is the run's Tally of holds, but the server's count, once
	// the loops have stopped.
	tally(holds []Hold) Tally
	// finish stops every loop after its current acquisition and returns
	// every acquisition's times, and how many times a contender's
	// connection dropped while looping.
	finish(ctx context.Context) ([]Hold, int64, error)
	// close ends every session and process; safe after finish or alone.
	close()
}

// observed is what in-process contenders' connections saw.
type observed struct {
	received Received
	// ops are our client's calls, by request type (zero for other clients).
	ops [numOps]OpStat
}

// Received counts the watch notifications that reached in-process
// contenders' connections.
type Received struct {
	// InProcess is false for clients in other processes: nothing counted.
	InProcess bool
	// Own are notifications about the contender's own lock node (when the
	// client says which node is its own); Wakes are all others.
	Own, Wakes int64
}

// Hold is one acquisition: when acquire returned and when release was
// called, in epoch microseconds.
type Hold struct {
	Contender          int
	Acquired, Released int64
	// Node is the contender's node, when the client says (see locker).
	Node string
}

func newDriver(cfg Config) (driver, error) {
	switch cfg.Client {
	case Ours:
		return newInProcess(cfg, oursLocker), nil // counts its calls
	case OursSASL:
		if cfg.Dial == nil {
			return nil, fmt.Errorf("lockbench: %s needs Config.Dial", cfg.Client)
		}
		return newInProcess(cfg, oursLocker), nil
	case GoZk:
		return newInProcess(cfg, gozkLocker), nil
	case Curator:
		return newCuratorChild(cfg)
	case Kazoo:
		return newKazooChild(cfg)
	}
	return nil, fmt.Errorf("lockbench: unknown client %q", cfg.Client)
}
