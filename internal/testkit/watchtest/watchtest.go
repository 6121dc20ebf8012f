// Package watchtest is the preamble of the tests that watch a real
// ZooKeeper: dial it, start a Watcher, drain its events into a model.State
// as they come, and wait until the State (or an event) says what the test
// waits for. A wait that times out fails the test with the condition's
// description, the last event seen, the locks known and the watcher's
// connection phases and errors.
//
// Tests of zkwatch itself (package zkwatch_test) and of the layers above
// it use it; zkwatch's and model's in-package tests cannot, as it imports
// both.
package watchtest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// Wait is how long Until and UntilEvent wait.
const Wait = 30 * time.Second

// Dial connects to connect (a connect string: host:port[,host:port][/chroot])
// with opts, whose Target it sets, within 20 s, and closes the connection
// when the test ends.
func Dial(t testing.TB, connect string, opts zkwatch.Options) *zkwatch.Conn {
	t.Helper()
	target, err := zkwatch.ParseConnectString(connect)
	if err != nil {
		t.Fatal(err)
	}
	opts.Target = target
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, opts)
	if err != nil {
		t.Fatalf("watchtest: dial %s: %v", connect, err)
	}
	t.Cleanup(conn.Close)
	return conn
}

// Start dials connect with the default options and watches it with cfg
// until the test ends: the whole preamble in one call.
func Start(t testing.TB, connect string, cfg zkwatch.WatchConfig) *Feed {
	t.Helper()
	return Watch(t, Dial(t, connect, zkwatch.Options{}), cfg)
}

// Watch starts a Watcher on conn with cfg and drains it until the test
// ends, when its context is cancelled and its Events have closed.
func Watch(t testing.TB, conn *zkwatch.Conn, cfg zkwatch.WatchConfig) *Feed {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := zkwatch.Watch(ctx, conn, cfg)
	f := Drain(w.Events())
	f.w = w
	t.Cleanup(func() { cancel(); <-f.done })
	return f
}

// Feed is a Watcher's events drained as they come, each applied to a
// model.State. It keeps every event, which suits a test's minutes, not a
// soak's hours. Its methods are safe to call while it drains.
type Feed struct {
	w      *zkwatch.Watcher
	mu     sync.Mutex
	state  *model.State
	events []zkwatch.Event
	phases []zkwatch.ConnPhase
	errs   []error
	syncs  int
	seen   map[string]time.Time // when each lock's first event came
	done   chan struct{}
	// also says more of the State in a failure (Describe).
	also func(s *model.State) string
	// next is the index in events from which UntilEvent looks.
	next int
}

// Drain drains events (a Watcher's, or a recording.Tee of them) until they
// close, handing each also to every one of also (an exporter's Apply)
// after the State, with the Feed held, so that Read sees them agree; the
// caller owns the Watcher's context, and waits on Done after cancelling
// it.
func Drain(events <-chan zkwatch.Event, also ...func(ev zkwatch.Event)) *Feed {
	f := &Feed{state: model.NewState(), seen: map[string]time.Time{}, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for ev := range events {
			f.mu.Lock()
			f.state.Apply(ev)
			for _, apply := range also {
				apply(ev)
			}
			f.events = append(f.events, ev)
			if _, ok := f.seen[ev.Path]; !ok && ev.Kind == zkwatch.EventLock {
				f.seen[ev.Path] = time.Now()
			}
			switch ev.Kind {
			case zkwatch.EventSynced:
				f.syncs++
			case zkwatch.EventConn:
				f.phases = append(f.phases, ev.Conn.Phase)
			case zkwatch.EventError:
				f.errs = append(f.errs, ev.Err)
			}
			f.mu.Unlock()
		}
	}()
	return f
}

// Watcher is the Watcher the Feed drains, when Watch or Start started it
// (nil after Drain).
func (f *Feed) Watcher() *zkwatch.Watcher { return f.w }

// Done is closed once the Watcher's Events have closed and every event
// has been applied.
func (f *Feed) Done() <-chan struct{} { return f.done }

// State is a copy of the State as the events so far left it (a
// model.State Clone), the test's to read while the Feed moves on.
func (f *Feed) State() *model.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state.Clone()
}

// Phases are the connection phases reported so far, in order.
func (f *Feed) Phases() []zkwatch.ConnPhase {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]zkwatch.ConnPhase(nil), f.phases...)
}

// Read calls fn with the State as the events so far left it; fn must not
// keep it.
func (f *Feed) Read(fn func(s *model.State)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f.state)
}

// Describe adds fn's account of the State (a history, a lock's
// participants) to the failure of every wait that follows.
func (f *Feed) Describe(fn func(s *model.State) string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.also = fn
}

// Events is every event drained so far, in order.
func (f *Feed) Events() []zkwatch.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]zkwatch.Event(nil), f.events...)
}

// Syncs is how many EventSynced have come.
func (f *Feed) Syncs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.syncs
}

// Errors is every EventError's error so far.
func (f *Feed) Errors() []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]error(nil), f.errs...)
}

// FirstSeen is when the first event of the lock at path came, and whether
// one has.
func (f *Feed) FirstSeen(path string) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	at, ok := f.seen[path]
	return at, ok
}

// Until waits up to Wait for cond to hold of the State, and fails the test
// naming what when it never does.
func (f *Feed) Until(t testing.TB, what string, cond func(s *model.State) bool) {
	t.Helper()
	f.UntilWithin(t, Wait, what, cond)
}

// UntilWithin is Until with its own time limit.
func (f *Feed) UntilWithin(t testing.TB, d time.Duration, what string, cond func(s *model.State) bool) {
	t.Helper()
	f.wait(t, d, func() string { return what }, func() bool { return cond(f.state) })
}

// UntilProgressing waits for cond to hold of the State for as long as
// progress, read from the State, keeps changing, and fails the test naming
// what once progress has stood still for Wait. It is for work whose length
// the machine's load sets (a walk of a large tree, read at a pace a loaded
// machine cannot keep): what fails is work that stopped, never work that
// is slow.
func (f *Feed) UntilProgressing(t testing.TB, what string, cond func(s *model.State) bool, progress func(s *model.State) int) {
	t.Helper()
	f.mu.Lock()
	last, moved := progress(f.state), time.Now()
	f.mu.Unlock()
	ok := func() bool {
		if p := progress(f.state); p != last {
			last, moved = p, time.Now()
		}
		return cond(f.state)
	}
	stuck := func() string {
		if time.Since(moved) <= Wait {
			return ""
		}
		return fmt.Sprintf("with no progress for %v (at %d)", Wait, last)
	}
	f.waitUnless(t, func() string { return what }, ok, stuck)
}

// UntilCheck waits up to d for check, which says what is still wrong with
// the State, to return "", and fails the test with its last answer when it
// never does.
func (f *Feed) UntilCheck(t testing.TB, d time.Duration, check func(s *model.State) string) {
	t.Helper()
	var wrong string
	f.wait(t, d, func() string { return wrong }, func() bool { wrong = check(f.state); return wrong == "" })
}

// UntilEvent waits up to Wait for an event for which cond holds, and
// returns it. It looks at the events drained so far and those to come,
// from the one after the event the previous UntilEvent returned (from the
// first, the first time): successive calls follow the stream in order.
func (f *Feed) UntilEvent(t testing.TB, what string, cond func(ev zkwatch.Event) bool) zkwatch.Event {
	t.Helper()
	var found zkwatch.Event
	f.wait(t, Wait, func() string { return what }, func() bool {
		for ; f.next < len(f.events); f.next++ {
			if ev := f.events[f.next]; cond(ev) {
				found = ev
				f.next++
				return true
			}
		}
		return false
	})
	return found
}

// wait polls ok, called with the Feed locked, every 20 ms for up to d;
// what names what it waits for in a failure.
func (f *Feed) wait(t testing.TB, d time.Duration, what func() string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	f.waitUnless(t, what, ok, func() string {
		if time.Now().After(deadline) {
			return fmt.Sprintf("within %v", d)
		}
		return ""
	})
}

// waitUnless polls ok, called with the Feed locked, every 20 ms until it
// holds, and fails the test naming what when the watcher ends first or
// when gaveUp, called after each poll, says why it gives up ("within 30s").
func (f *Feed) waitUnless(t testing.TB, what func() string, ok func() bool, gaveUp func() string) {
	t.Helper()
	for {
		f.mu.Lock()
		held := ok()
		f.mu.Unlock()
		if held {
			return
		}
		select {
		case <-f.done:
			f.mu.Lock()
			held = ok()
			f.mu.Unlock()
			if held {
				return
			}
			t.Fatalf("never saw %s: the watcher ended; %s", what(), f.describe())
		default:
		}
		if why := gaveUp(); why != "" {
			t.Fatalf("never saw %s %s; %s", what(), why, f.describe())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// describe says what the Feed had seen, for a failure.
func (f *Feed) describe() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	last := "none"
	if n := len(f.events); n > 0 {
		last = fmt.Sprintf("%s (%d events in all)", DescribeEvent(f.events[n-1]), n)
	}
	var locks []string
	for _, l := range f.state.SortedLocks(model.ByPath) {
		locks = append(locks, fmt.Sprintf("%s(%d)", l.Path, len(l.Participants)))
	}
	more := ""
	if f.also != nil {
		more = "\n" + f.also(f.state)
	}
	return fmt.Sprintf("last event: %s; locks: [%s]; connection phases %v; errors %v%s",
		last, strings.Join(locks, " "), f.phases, f.errs, more)
}
