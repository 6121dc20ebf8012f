//go:build !race

// The chaos suite runs without the race detector: every reconnect here
// re-registers watches (the watcher's, and each holder's on its own node),
// and go-zookeeper v1.0.4 races with itself then (Conn.recvLoop writes
// lastZxid at conn.go:849 while Conn.sendSetWatches reads it at
// conn.go:614). Our own code's concurrency runs under -race in lockcore's
// tests and in this package's ledger test, with reconnects in tests that
// set no watch before one (lockcore's reconnect tests).

package chaos

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

var (
	long = flag.Bool("chaos.long", false, "run the long chaos suite, every mode in turn (make chaos)")
	soak = flag.Duration("chaos.soak", 0, "run the mixed chaos for this long (make soak)")
)

// plan is how much chaos one run makes.
type plan struct {
	contenders, rounds, realPerLock int
	leaderKills, drops, expiry      int
	// until, when set, keeps the faults and the contenders going until then.
	until time.Time
}

// sessionTimeout is short so that expiries can be forced in seconds.
const sessionTimeout = 2 * time.Second

type discard struct{}

func (discard) Printf(string, ...interface{}) {}

// contender is one session of our client, reaching each member through its
// own proxy so that its faults are its own.
type contender struct {
	name    string
	proxies []*zktest.Proxy
	conn    *zk.Conn
	zk      lockclient.ZK
	locks   *lockclient.Client
	// holding is set while the contender is in a critical section, so
	// that faults can be aimed at holders. targeted is set by the fault
	// injector on a holder whose session it is about to expire: that
	// holder stays inside until told the lock is lost (or far past the
	// expiry), so a holder that was never told would still be inside when
	// the next one enters.
	holding, targeted atomic.Bool
}

func (c *contender) each(f func(*zktest.Proxy)) {
	for _, p := range c.proxies {
		f(p)
	}
}

func TestIntegrationChaos(t *testing.T) {
	if *soak > 0 {
		t.Skip("-chaos.soak runs TestIntegrationSoak")
	}
	ens := zktest.StartEnsemble(t, 3)
	if !*long {
		// The light run inside make test: every mode at once.
		p := plan{contenders: 12, rounds: 3, realPerLock: 1, leaderKills: 2, drops: 8, expiry: 2}
		run(t, ens, p, []string{modeExclusive, modeReadWrite, modeLease})
		return
	}
	p := plan{contenders: 16, rounds: 20, realPerLock: 2, leaderKills: 6, drops: 24, expiry: 6}
	for _, m := range []string{modeExclusive, modeReadWrite, modeLease} {
		t.Run(m, func(t *testing.T) { run(t, ens, p, []string{m}) })
	}
}

// TestIntegrationSoak runs every mode at once, under the faults, for
// -chaos.soak.
func TestIntegrationSoak(t *testing.T) {
	if *soak <= 0 {
		t.Skip("give -chaos.soak")
	}
	ens := zktest.StartEnsemble(t, 3)
	p := plan{contenders: 16, rounds: 1, realPerLock: 2, leaderKills: 1, drops: 4, expiry: 1, until: time.Now().Add(*soak)}
	run(t, ens, p, []string{modeExclusive, modeReadWrite, modeLease})
}

// run is one chaos run of modes on ens.
func run(t *testing.T, ens *zktest.Ensemble, p plan, modes []string) {
	locks := locksFor(modes)
	modeOf := map[string]string{}
	var paths []string
	for _, l := range locks {
		modeOf[l.path] = l.mode
		paths = append(paths, l.path)
	}

	// The watcher follows everything throughout, straight to the ensemble.
	target, _ := zkwatch.ParseConnectString(ens.ConnectString())
	dialCtx, cancelDial := context.WithTimeout(context.Background(), 30*time.Second)
	wconn, err := zkwatch.Dial(dialCtx, zkwatch.Options{Target: target})
	cancelDial()
	if err != nil {
		t.Fatal(err)
	}
	defer wconn.Close()
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	state := &syncState{s: model.NewState()}
	watcher := zkwatch.Watch(watchCtx, wconn, zkwatch.WatchConfig{Roots: []string{"/"}, Locks: paths, EnrichEvery: -1})
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		for ev := range watcher.Events() {
			state.apply(ev)
		}
	}()

	cs := connectContenders(t, ens, p.contenders)
	var book ledger
	var failures atomic.Int64
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	var faultsDone atomic.Bool
	more := func(done int) bool {
		if runCtx.Err() != nil {
			return false
		}
		if !p.until.IsZero() {
			return time.Now().Before(p.until) || !faultsDone.Load()
		}
		return done < p.rounds || !faultsDone.Load()
	}
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ours(c, locks, i, more, &book, &failures)
		}()
	}
	reals := startReal(t, ens, locks, p.realPerLock, more, &book, &wg)

	// No contender finishes before the faults are done (more says so), so
	// the queues are watched for a stall from the start.
	var kills, drops, expiries int
	injected := make(chan struct{})
	go func() {
		defer close(injected)
		kills, drops, expiries = inject(p, ens, cs)
		faultsDone.Store(true)
	}()
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	observer := ens.Connect(t)
	isOurs := func(session int64) bool {
		for _, c := range cs {
			if c.conn.SessionID() == session {
				return true
			}
		}
		return false
	}
	stalledLocks := awaitQueues(finished, observer, locks, &book, func() { reals.sweep(observer, locks, isOurs) })
	for _, l := range stalledLocks {
		t.Errorf("%s: its queue has not moved for %s; its nodes now:\n%s", l.path, stallAfter, describeStall(observer, l, cs))
	}
	stalled := len(stalledLocks) > 0
	if stalled {
		stopRun()
	}
	<-injected
	<-finished

	// With every session still open, every contender node must go: a node
	// left behind by a live session would head its queue for ever.
	check := ens.Connect(t)
	leaks := map[string]int{}
	waitUntil(30*time.Second, func() bool {
		total := 0
		clear(leaks)
		for _, l := range locks {
			n := countNodes(t, check, l)
			leaks[l.mode] += n
			total += n
		}
		return total == 0
	})
	agreed := waitUntil(30*time.Second, func() bool {
		return state.participants() == 0 && state.synced()
	})
	for _, c := range cs {
		c.conn.Close()
		c.locks.Close()
	}

	violations := book.violations()
	tallies := book.tally(modeOf)
	byMode := map[string][]string{}
	for _, v := range violations {
		m := modeOf[v[:strings.Index(v, ":")]]
		byMode[m] = append(byMode[m], v)
	}
	for _, m := range modes {
		tl := tallies[m]
		if tl == nil {
			tl = &tally{}
		}
		t.Logf("chaos %s: %d acquisitions (ours %d, real clients %d); faults: leader kills %d, connection drops %d, forced expiries %d; "+
			"holders told of a loss %d; violations %d; leaked nodes %d",
			m, tl.ours+tl.real, tl.ours, tl.real, kills, drops, expiries, tl.told, len(byMode[m]), leaks[m])
	}
	t.Logf("chaos: failed attempts of ours (timeouts, lost sessions) %d; real clients' own faults %d", failures.Load(), len(reals.faults()))
	for _, f := range reals.faults() {
		t.Logf("real client fault (not counted against ours): %s", f)
	}
	for _, v := range violations {
		t.Error(v)
	}
	if kills < p.leaderKills || drops < p.drops || expiries < p.expiry {
		t.Errorf("too few faults: kills %d drops %d expiries %d", kills, drops, expiries)
	}
	for m, n := range leaks {
		if n != 0 {
			t.Errorf("%s: %d contender nodes left while their sessions lived", m, n)
		}
	}
	if !agreed && !stalled {
		t.Errorf("the watcher does not show the true tree: %d participants; %s", state.participants(), state.describe())
	}
	stopWatch()
	<-watchDone
}

func connectContenders(t *testing.T, ens *zktest.Ensemble, n int) []*contender {
	cs := make([]*contender, n)
	for i := range cs {
		c := &contender{name: fmt.Sprintf("c%02d", i)}
		var addrs []string
		for _, m := range ens.Members() {
			px := zktest.NewProxy(t, m.Addr())
			c.proxies = append(c.proxies, px)
			addrs = append(addrs, px.Addr())
		}
		session := new(lockclient.Session)
		conn, _, err := zk.Connect(addrs, sessionTimeout, zk.WithLogger(discard{}), zk.WithEventCallback(session.Event))
		if err != nil {
			t.Fatal(err)
		}
		c.conn, c.zk = conn, lockclient.WithSession(conn, session)
		c.locks = lockclient.NewClient(c.zk)
		cs[i] = c
	}
	return cs
}

// ours is one contender's loop: acquire a lock of its modes, stay, release.
func ours(c *contender, locks []lockDef, seed int, more func(int) bool, book *ledger, failures *atomic.Int64) {
	rng := rand.New(rand.NewSource(int64(seed)))
	for done := 0; more(done); {
		l := locks[rng.Intn(len(locks))]
		spec := lockclient.Spec{Path: l.path, Recipe: l.recipe, Mode: lockcore.ModeExclusive}
		switch l.mode {
		case modeReadWrite:
			spec.Mode = lockcore.ModeRead
			if rng.Intn(3) == 0 {
				spec.Mode = lockcore.ModeWrite
			}
		case modeLease:
			spec.Mode, spec.MaxLeases = lockcore.ModeLease, leases
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		held, err := c.locks.Acquire(ctx, spec)
		cancel()
		if err != nil {
			failures.Add(1)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		e := entry{lock: l.path, who: c.name, kind: kindOf(spec.Mode), limit: leases, token: held.Token, enter: time.Now()}
		c.holding.Store(true)
		stay(held, e.enter, time.Duration(5+rng.Intn(30))*time.Millisecond, &c.targeted)
		e.exit = time.Now()
		c.holding.Store(false)
		e.lostAt = held.LostAt()
		relCtx, cancelRel := context.WithTimeout(context.Background(), 30*time.Second)
		held.Release(relCtx)
		cancelRel()
		book.add(e)
		done++
	}
}

// inject runs the fault schedule: leader kills with restarts, and between
// them connection drops and forced expiries of our contenders, until the
// plan's counts are reached and its time is up.
func inject(p plan, ens *zktest.Ensemble, cs []*contender) (kills, drops, expiries int) {
	rng := rand.New(rand.NewSource(42))
	members := ens.Members()
	var expiring sync.WaitGroup
	for kills < p.leaderKills || drops < p.drops || expiries < p.expiry || time.Now().Before(p.until) {
		round := p.until.After(time.Now())
		if kills < p.leaderKills || round {
			leader := ens.Leader()
			members[leader].Stop()
			kills++
			time.Sleep(500 * time.Millisecond)
			members[leader].Restart()
			ens.Leader()
		}
		for i := 0; i < 4 && (drops < p.drops || round); i++ {
			pick(rng, cs).each((*zktest.Proxy).Drop)
			drops++
			time.Sleep(100 * time.Millisecond)
		}
		if expiries < p.expiry || round {
			c := pickHolder(rng, cs)
			c.targeted.Store(true)
			expiries++
			expiring.Add(1)
			go func() {
				defer expiring.Done()
				c.each(func(px *zktest.Proxy) { px.Blackhole(true) })
				time.Sleep(2 * sessionTimeout)
				c.each(func(px *zktest.Proxy) { px.Blackhole(false) })
				c.targeted.Store(false)
			}()
		}
		if round {
			// A soak spreads its faults: a few seconds of calm between
			// rounds, so that most time is spent acquiring.
			time.Sleep(5 * time.Second)
		}
	}
	expiring.Wait()
	return kills, drops, expiries
}

// countNodes counts the contender nodes under a lock.
func countNodes(t *testing.T, c *zk.Conn, l lockDef) int {
	n := 0
	for _, dir := range l.nodeDirs() {
		names, _, err := c.Children(dir)
		if err != nil && err != zk.ErrNoNode {
			t.Fatal(err)
		}
		n += len(names)
	}
	return n
}

// pick chooses a contender to fault, a holder when one is holding.
func pick(rng *rand.Rand, cs []*contender) *contender {
	var holders []*contender
	for _, c := range cs {
		if c.holding.Load() {
			holders = append(holders, c)
		}
	}
	if len(holders) > 0 {
		return holders[rng.Intn(len(holders))]
	}
	return cs[rng.Intn(len(cs))]
}

// pickHolder waits a little for a contender to hold and picks it, else
// anyone.
func pickHolder(rng *rand.Rand, cs []*contender) *contender {
	deadline := time.Now().Add(sessionTimeout)
	for time.Now().Before(deadline) {
		for _, i := range rng.Perm(len(cs)) {
			if cs[i].holding.Load() && !cs[i].targeted.Load() {
				return cs[i]
			}
		}
		time.Sleep(time.Millisecond)
	}
	return cs[rng.Intn(len(cs))]
}

// stay is a critical section: it lasts hold, or, while targeted, until the
// lock is reported lost or three session timeouts have passed since enter.
func stay(held *lockclient.Held, enter time.Time, hold time.Duration, targeted *atomic.Bool) {
	for {
		select {
		case <-held.Lost():
			return
		case <-time.After(time.Millisecond):
		}
		since := time.Since(enter)
		if since >= hold && (!targeted.Load() || since >= 3*sessionTimeout) {
			return
		}
	}
}

func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cond()
}

// syncState is the watcher's picture, read while it changes.
type syncState struct {
	mu      sync.Mutex
	s       *model.State
	journal journal
}

func (s *syncState) apply(ev zkwatch.Event) {
	s.mu.Lock()
	s.s.Apply(ev)
	s.journal.add(ev)
	s.mu.Unlock()
}

// describe says which locks the watcher shows participants in, and how it
// came to.
func (s *syncState) describe() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for p, l := range s.s.Locks {
		if len(l.Participants) > 0 {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return fmt.Sprintf("stale %v\n%s", s.s.Stale(), s.journal.describe(paths))
}

func (s *syncState) participants() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.s.Locks {
		n += len(l.Participants)
	}
	return n
}

func (s *syncState) synced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.s.Stale()
}
