//go:build !race

package chaos

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// longestRound bounds a real contender's round: its acquire step, its wait
// for the lock and its release step.
const longestRound = stepBudget + realHoldTimeout + stepBudget + 30*time.Second

// stepBudget is package peers' budget for one step.
const stepBudget = 30 * time.Second

// realHoldTimeout is how long a real client may wait for a lock before its
// wait is recorded as its own fault and abandoned. Our contenders behind it
// time out and retry.
const realHoldTimeout = 60 * time.Second

// realClients runs Curator and kazoo contenders in the chaos locks, through
// package peers, each stay recorded in the same ledger as ours. They reach
// the ensemble directly, so their faults are the leader kills.
type realClients struct {
	mu   sync.Mutex
	errs []string
	// sessions are every real contender's session, true while its round
	// is under way: a node of one whose round has ended was left behind.
	sessions map[int64]bool
}

func (r *realClients) track(session int64, active bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = map[int64]bool{}
	}
	r.sessions[session] = active
}

// sweep force-releases, as an operator would, the nodes that real
// contenders whose rounds have ended left behind while their sessions live
// on (a Curator client that gave up under the faults without closing its
// session), and records each as that client's fault with the queue as
// evidence. Our nodes are never touched: only sessions a real contender
// reported are.
//
// A Curator client whose session expired under the faults goes on in a new
// session no round reported, so a node that is not ours, not an active
// round's, and older than any round can last is left behind too.
func (r *realClients) sweep(observer *zk.Conn, locks []lockDef, ours func(int64) bool) {
	r.mu.Lock()
	ended, active := map[int64]bool{}, map[int64]bool{}
	for s, on := range r.sessions {
		ended[s], active[s] = !on, on
	}
	r.mu.Unlock()
	for _, l := range locks {
		for _, dir := range l.nodeDirs() {
			names, _, err := observer.Children(dir)
			if err != nil {
				continue
			}
			for _, n := range names {
				data, st, err := observer.Get(dir + "/" + n)
				if err != nil || strings.HasPrefix(string(data), "zklocks ") {
					continue // our client's data: never swept
				}
				age := time.Since(time.UnixMilli(st.Ctime))
				stray := age > longestRound && !ours(st.EphemeralOwner) && !active[st.EphemeralOwner]
				if !ended[st.EphemeralOwner] && !stray {
					continue
				}
				evidence := describeDir(observer, dir, nil)
				if observer.Delete(dir+"/"+n, st.Version) == nil {
					r.fault("%s/%s of session 0x%x, %s old, outlived its real contender's round, its session still open: force-released; the queue then:\n%s",
						dir, n, st.EphemeralOwner, age.Round(time.Second), evidence)
				}
			}
		}
	}
}

func (r *realClients) fault(format string, args ...any) {
	r.mu.Lock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *realClients) faults() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// startReal starts perLock real contenders on every lock, each looping
// while more says so; wg counts them.
func startReal(t *testing.T, ens *zktest.Ensemble, locks []lockDef, perLock int, more func(int) bool, book *ledger, wg *sync.WaitGroup) *realClients {
	r := &realClients{}
	if perLock == 0 {
		return r
	}
	started := map[peers.Kind]*peers.Peer{}
	for _, l := range locks {
		if started[l.real] == nil {
			started[l.real] = peers.Start(t, l.real, ens.ConnectString())
		}
	}
	observer := ens.Connect(t)
	for _, l := range locks {
		for slot := range perLock {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.loop(t, started[l.real], l, slot, more, book, observer, ens.Members())
			}()
		}
	}
	return r
}

// loop is one real contender slot: each round a new contender (a new
// session, as package peers makes them) acquires, stays, releases.
func (r *realClients) loop(t *testing.T, p *peers.Peer, l lockDef, slot int, more func(int) bool, book *ledger, observer *zk.Conn, members []*zktest.Server) {
	rng := rand.New(rand.NewSource(int64(1000 + slot)))
	for round := 0; more(round); round++ {
		r.round(t, p, l, fmt.Sprintf("%s-%s-%d-%d", l.real, l.mode, slot, round), rng, book, observer, members)
	}
}

// round is one real contender's acquire, stay and release. Its session
// counts as active until the round ends (see sweep).
func (r *realClients) round(t *testing.T, p *peers.Peer, l lockDef, id string, rng *rand.Rand, book *ledger, observer *zk.Conn, members []*zktest.Server) {
	variant := l.variants[rng.Intn(len(l.variants))]
	var c peers.Contender
	msg := step(t, func(tb testing.TB) { c = p.Acquire(tb, id, variant, l.path) })
	if c.Session != 0 {
		r.track(c.Session, true)
		defer r.track(c.Session, false)
	}
	if msg != "" {
		// Under leader kills a new session may take long to come.
		r.fault("%s %s on %s: no node: %s", id, variant, l.path, msg)
		step(t, func(tb testing.TB) { p.Release(tb, id) })
		return
	}
	if msg := waitHeld(t, p, l, variant, c, observer, members); msg != "" {
		r.fault("%s %s on %s did not get the lock: %s", id, variant, l.path, msg)
		if msg := step(t, func(tb testing.TB) { p.Release(tb, id) }); msg != "" {
			// The client could not give its node up (Curator's release
			// ends in ConnectionLoss under a leader kill): an operator
			// force-releases it, so the queue behind it moves on.
			r.fault("%s %s on %s: release: %s; its nodes force-released: %s", id, variant, l.path, msg,
				forceRelease(observer, l.nodeDirs(), c.Session))
		}
		return
	}
	// The stamps lie inside the real hold: "acquired" is read after the
	// client's acquire returned, and the exit is stamped before the
	// release is sent.
	e := entry{lock: l.path, who: id, kind: realKind(variant), limit: leases, enter: time.Now(), real: true}
	time.Sleep(time.Duration(5+rng.Intn(30)) * time.Millisecond)
	e.exit = time.Now()
	book.add(e)
	if msg := step(t, func(tb testing.TB) { p.Release(tb, id) }); msg != "" {
		r.fault("%s %s on %s: release: %s", id, variant, l.path, msg)
	}
}

// waitHeld waits up to realHoldTimeout for real contender c to hold, and
// returns "" when it does, or what kept it with the lock's nodes as
// evidence. A kazoo reader seen in kazoo 2.8's deadlock is given up at once:
// waiting on only holds up every contender queued behind it.
func waitHeld(t *testing.T, p *peers.Peer, l lockDef, variant string, c peers.Contender, observer *zk.Conn, members []*zktest.Server) string {
	deadline := time.Now().Add(realHoldTimeout)
	for time.Now().Before(deadline) {
		var held bool
		var err error
		if msg := step(t, func(tb testing.TB) { held, err = p.HeldWithin(tb, c.ID, time.Second) }); msg != "" {
			return msg
		}
		switch {
		case err != nil:
			return err.Error()
		case held:
			return ""
		}
		if l.real == peers.Kazoo && variant == "read" {
			if cycle := kazooReaderCycle(observer, members, l.path, c.Session); cycle != "" {
				return "kazoo 2.8's read-lock deadlock: " + cycle
			}
		}
	}
	var evidence string
	for _, dir := range l.nodeDirs() {
		evidence += describeDir(observer, dir, nil)
	}
	return fmt.Sprintf("not held after %s; the lock then:\n%s", realHoldTimeout, evidence)
}

func realKind(variant string) kind {
	switch variant {
	case "read":
		return read
	case "write":
		return write
	case "mutex", "lock":
		return exclusive
	}
	return lease
}

// step runs f on its own goroutine with a TB whose Fatal ends only that
// goroutine, and returns what it failed with, or "".
func step(t *testing.T, f func(testing.TB)) string {
	s := &stepTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(s)
	}()
	<-done
	return s.msg
}

// stepTB turns a peer step's failure into a message instead of failing the
// test: a real client's trouble under faults is recorded, not fatal.
type stepTB struct {
	testing.TB
	msg string
}

func (s *stepTB) Helper() {}

func (s *stepTB) Fatalf(format string, args ...any) {
	s.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (s *stepTB) Fatal(args ...any) {
	s.msg = fmt.Sprint(args...)
	runtime.Goexit()
}

func (s *stepTB) Errorf(format string, args ...any) { s.msg = fmt.Sprintf(format, args...) }

// forceRelease deletes the nodes in dirs that session owns, as an operator
// would a stuck client's, and says which.
func forceRelease(c *zk.Conn, dirs []string, session int64) string {
	var gone []string
	for _, dir := range dirs {
		names, _, err := c.Children(dir)
		if err != nil {
			continue
		}
		for _, n := range names {
			_, st, err := c.Get(dir + "/" + n)
			if err != nil || session == 0 || st.EphemeralOwner != session {
				continue
			}
			if err := c.Delete(dir+"/"+n, st.Version); err == nil {
				gone = append(gone, n)
			}
		}
	}
	return fmt.Sprint(gone)
}
