package chaos

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

var long = flag.Bool("chaos.long", false, "run the long chaos suite (make chaos)")

// plan is how much chaos one run makes.
type plan struct {
	contenders, locks, rounds  int
	leaderKills, drops, expiry int
}

// sessionTimeout is short so that expiries can be forced in seconds.
const sessionTimeout = 2 * time.Second

type discard struct{}

func (discard) Printf(string, ...interface{}) {}

// contender is one client session, reaching each member through its own
// proxy so that its faults are its own.
type contender struct {
	name    string
	proxies []*zktest.Proxy
	conn    *zk.Conn
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
	// The short run inside make test; make chaos runs the full
	// schedule (and more) with -chaos.long.
	p := plan{contenders: 16, locks: 3, rounds: 4, leaderKills: 2, drops: 8, expiry: 2}
	if *long {
		p = plan{contenders: 16, locks: 3, rounds: 20, leaderKills: 6, drops: 24, expiry: 6}
	}
	ens := zktest.StartEnsemble(t, 3)
	members := ens.Members()
	locks := make([]string, p.locks)
	for i := range locks {
		locks[i] = fmt.Sprintf("/chaos/lock-%d", i)
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
	watcher := zkwatch.Watch(watchCtx, wconn, zkwatch.WatchConfig{Roots: []string{"/"}, Locks: locks, EnrichEvery: -1})
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		for ev := range watcher.Events() {
			state.apply(ev)
		}
	}()

	cs := make([]*contender, p.contenders)
	for i := range cs {
		c := &contender{name: fmt.Sprintf("c%02d", i)}
		var addrs []string
		for _, m := range members {
			px := zktest.NewProxy(t, m.Addr())
			c.proxies = append(c.proxies, px)
			addrs = append(addrs, px.Addr())
		}
		conn, _, err := zk.Connect(addrs, sessionTimeout, zk.WithLogger(discard{}))
		if err != nil {
			t.Fatal(err)
		}
		c.conn = conn
		cs[i] = c
	}

	var book ledger
	var failures, lost atomic.Int64
	runCtx, stopRun := context.WithCancel(context.Background())
	var faultsDone atomic.Bool
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(i)))
			done := 0
			for (done < p.rounds || !faultsDone.Load()) && runCtx.Err() == nil {
				lock := locks[rng.Intn(len(locks))]
				ctx, cancel := context.WithTimeout(runCtx, 30*time.Second)
				held, err := lockcore.Acquire(ctx, c.conn, lockcore.Spec{Path: lock, Mode: lockcore.ModeExclusive, Recipe: lockcore.RecipeCuratorMutex})
				cancel()
				if err != nil {
					failures.Add(1)
					time.Sleep(50 * time.Millisecond)
					continue
				}
				e := entry{lock: lock, who: c.name, token: held.Token, enter: time.Now()}
				c.holding.Store(true)
				stay(held, e.enter, time.Duration(5+rng.Intn(30))*time.Millisecond, &c.targeted)
				e.exit = time.Now()
				c.holding.Store(false)
				e.lostAt = held.LostAt()
				if !e.lostAt.IsZero() {
					lost.Add(1)
				}
				relCtx, cancelRel := context.WithTimeout(context.Background(), 30*time.Second)
				held.Release(relCtx)
				cancelRel()
				book.add(e)
				done++
			}
		}()
	}

	kills, drops, expiries := inject(t, p, ens, cs)
	faultsDone.Store(true)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(3 * time.Minute):
		t.Errorf("not every contender finished its rounds; the locks now:\n%s", describe(ens.Connect(t), locks, cs))
		stopRun()
		<-finished
	}
	stopRun()
	for _, c := range cs {
		c.conn.Close()
	}

	// Every contender node must be gone, and the watcher must agree.
	check := ens.Connect(t)
	leaked := 0
	for _, l := range locks {
		names, _, err := check.Children(l)
		if err != nil && err != zk.ErrNoNode {
			t.Fatal(err)
		}
		leaked += len(names)
	}
	agreed := waitUntil(30*time.Second, func() bool {
		return state.participants() == 0 && state.synced()
	})
	violations := book.violations()
	t.Logf("chaos: %d acquisitions by %d contenders on %d locks; leader kills %d, connection drops %d, forced expiries %d; "+
		"locks lost and told %d, failed attempts %d; violations %d; leaked nodes %d",
		book.count(), p.contenders, p.locks, kills, drops, expiries, lost.Load(), failures.Load(), len(violations), leaked)
	for _, v := range violations {
		t.Error(v)
	}
	if kills < p.leaderKills || drops < p.drops || expiries < p.expiry {
		t.Errorf("too few faults: kills %d drops %d expiries %d", kills, drops, expiries)
	}
	if leaked != 0 {
		t.Errorf("%d contender nodes left after every client closed", leaked)
	}
	if !agreed {
		t.Errorf("the watcher does not show the true tree: %d participants", state.participants())
	}
	stopWatch()
	<-watchDone
}

// inject runs the fault schedule: leader kills with restarts, and between
// them connection drops and forced expiries of random contenders.
func inject(t *testing.T, p plan, ens *zktest.Ensemble, cs []*contender) (kills, drops, expiries int) {
	rng := rand.New(rand.NewSource(42))
	members := ens.Members()
	var expiring sync.WaitGroup
	for kills < p.leaderKills || drops < p.drops || expiries < p.expiry {
		if kills < p.leaderKills {
			leader := ens.Leader()
			members[leader].Stop()
			kills++
			time.Sleep(500 * time.Millisecond)
			members[leader].Restart()
			ens.Leader()
		}
		for i := 0; i < 4 && drops < p.drops; i++ {
			pick(rng, cs).each((*zktest.Proxy).Drop)
			drops++
			time.Sleep(100 * time.Millisecond)
		}
		if expiries < p.expiry {
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
	}
	expiring.Wait()
	return kills, drops, expiries
}

// describe lists each lock's nodes with their owners and the contenders'
// sessions and connection states, to show what a stalled run waits on.
func describe(c *zk.Conn, locks []string, cs []*contender) string {
	var b strings.Builder
	for _, l := range locks {
		names, _, err := c.Children(l)
		sort.Strings(names)
		fmt.Fprintf(&b, "%s (%v):\n", l, err)
		for _, n := range names {
			_, st, err := c.Get(l + "/" + n)
			if err == nil {
				fmt.Fprintf(&b, "  %s owner 0x%x czxid 0x%x\n", n, st.EphemeralOwner, st.Czxid)
			}
		}
	}
	for _, k := range cs {
		fmt.Fprintf(&b, "%s session 0x%x state %s holding %v\n", k.name, k.conn.SessionID(), k.conn.State(), k.holding.Load())
	}
	return b.String()
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
			if cs[i].holding.Load() {
				return cs[i]
			}
		}
		time.Sleep(time.Millisecond)
	}
	return cs[rng.Intn(len(cs))]
}

// stay is a critical section: it lasts hold, or, while targeted, until the
// lock is reported lost or three session timeouts have passed since enter.
func stay(held *lockcore.Held, enter time.Time, hold time.Duration, targeted *atomic.Bool) {
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
	mu sync.Mutex
	s  *model.State
}

func (s *syncState) apply(ev zkwatch.Event) {
	s.mu.Lock()
	s.s.Apply(ev)
	s.mu.Unlock()
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
