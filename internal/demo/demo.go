package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// Demo is a running demo: its contenders and the admin session that made
// (and will remove) the demo's nodes. Its methods are safe for concurrent
// use; the controls act on the contenders as they are at the time, which
// may have moved on by the time the caller shows the result.
type Demo struct {
	cfg      Config
	lockPath string
	admin    *zkwatch.Conn
	ctx      context.Context // ends at Close
	cancel   context.CancelFunc
	wg       sync.WaitGroup // the contenders' goroutines
	wakeups  atomic.Int64

	mu         sync.Mutex
	rng        *rand.Rand
	contenders []*contender // live ones, in the order added
	nextID     int
	arrivals   int64 // the naive lock's waiting order
	closed     bool
	grants     int
	releases   int
	fifoBreaks int
	orphans    []string
}

// closeTimeout bounds the cleanup after a failed Start.
const closeTimeout = 15 * time.Second

// Start makes the demo's lock under Root and starts the contenders, each
// with its own session, and returns once every session is established.
// ctx bounds the start only. A lock that already has contenders fails with
// ErrBusy. The caller must Close the Demo.
func Start(ctx context.Context, cfg Config) (*Demo, error) {
	cfg = cfg.withDefaults()
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	d := &Demo{cfg: cfg, lockPath: LockPath(cfg.Recipe), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	var err error
	if d.admin, err = d.dial(ctx); err != nil {
		return nil, err
	}
	if err := d.prepare(); err != nil {
		d.admin.Close()
		return nil, err
	}
	for range cfg.Contenders {
		if _, err := d.add(ctx, false); err != nil {
			closeCtx, cancel := context.WithTimeout(context.Background(), closeTimeout)
			d.Close(closeCtx)
			cancel()
			return nil, err
		}
	}
	return d, nil
}

func (d *Demo) dial(ctx context.Context) (*zkwatch.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.DialTimeout)
	defer cancel()
	c, err := zkwatch.Dial(ctx, d.cfg.Options)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	return c, nil
}

// LockPath returns the path of the demo's lock (see the package LockPath).
func (d *Demo) LockPath() string { return d.lockPath }

// Recipe returns what the contenders run.
func (d *Demo) Recipe() Recipe { return d.cfg.Recipe }

// Stats are the demo's counters since it started.
type Stats struct {
	Recipe Recipe
	// Contenders is how many contenders run now; Waiting and Holding how
	// many of them wait and hold; Frozen how many holders are frozen.
	Contenders, Waiting, Holding, Frozen int
	// Grants and Releases count the lock being granted and let go (a
	// holder's release, loss, or killed session).
	Grants, Releases int
	// Wakeups counts the watch notifications that reached a contender's
	// session because of another session's node or children changing (see
	// countingZK): the waiters a release woke. A fair lock wakes one
	// waiter per release, the naive lock every waiter.
	Wakeups int
	// FIFOBreaks counts grants that overtook a contender waiting longer:
	// queued earlier (by sequence number), or, for the naive lock, waiting
	// since an earlier failed create. Two readers or two leases granted
	// together are not an overtaking.
	FIFOBreaks int
	// Orphans are the nodes whose create reply LoseReply "lost", until
	// they go (fenced, or their session ends).
	Orphans []string
}

// WakeupsPerRelease is Wakeups / Releases, or 0 before the first release.
func (s Stats) WakeupsPerRelease() float64 {
	if s.Releases == 0 {
		return 0
	}
	return float64(s.Wakeups) / float64(s.Releases)
}

// Stats returns the counters now.
func (d *Demo) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := Stats{Recipe: d.cfg.Recipe, Contenders: len(d.contenders), Grants: d.grants, Releases: d.releases,
		Wakeups: int(d.wakeups.Load()), FIFOBreaks: d.fifoBreaks, Orphans: append([]string(nil), d.orphans...)}
	for _, c := range d.contenders {
		switch c.phase {
		case waiting:
			s.Waiting++
		case holding:
			s.Holding++
			if c.frozen {
				s.Frozen++
			}
		}
	}
	return s
}

// Close stops every contender (ending its session, so its nodes go),
// deletes the demo's lock and, when it is left empty, Root, and ends the
// admin session. ctx bounds the wait for the contenders and the deletes;
// closing twice does nothing.
func (d *Demo) Close(ctx context.Context) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	cs := d.contenders
	d.contenders = nil
	for _, c := range cs {
		c.thawLocked()
	}
	d.mu.Unlock()
	d.cancel()
	var closing sync.WaitGroup
	for _, c := range cs {
		closing.Add(1)
		go func() { defer closing.Done(); c.stop() }()
	}
	closing.Wait()
	stopped := make(chan struct{})
	go func() { d.wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-ctx.Done():
	}
	err := d.cleanup(ctx)
	d.admin.Close()
	return err
}

// emit tells OnEvent; d.mu must not be held.
func (d *Demo) emit(ev Event) {
	if d.cfg.OnEvent != nil {
		if ev.At.IsZero() {
			ev.At = time.Now()
		}
		d.cfg.OnEvent(ev)
	}
}

// randDuration returns a duration in [lo, hi].
func (d *Demo) randDuration(lo, hi time.Duration) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(d.rng.Int64N(int64(hi-lo)+1))
}
