package demo

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// quick holds and rests, so that a test sees dozens of releases in seconds.
func quick(srv *zktest.Server, r Recipe, n int) Config {
	target, _ := zkwatch.ParseConnectString(srv.Addr())
	return Config{Options: zkwatch.Options{Target: target}, Recipe: r, Contenders: n,
		HoldMin: 30 * time.Millisecond, HoldMax: 80 * time.Millisecond, Pause: 40 * time.Millisecond}
}

// events collects a demo's events for assertions.
type events struct {
	mu  sync.Mutex
	all []Event
}

func (e *events) add(ev Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

func (e *events) count(k EventKind) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, ev := range e.all {
		if ev.Kind == k {
			n++
		}
	}
	return n
}

func startDemo(t *testing.T, cfg Config) (*Demo, *events) {
	t.Helper()
	evs := &events{}
	cfg.OnEvent = evs.add
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	return d, evs
}

// waitFor polls cond for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func closeAndCheckGone(t *testing.T, d *Demo, srv *zktest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := d.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if ok, _, err := srv.Connect(t).Exists(Root); err != nil || ok {
		t.Fatalf("after Close, %s exists = %v, %v; want it gone", Root, ok, err)
	}
}

func herd(t *testing.T, r Recipe, n, releases int) Stats {
	srv := zktest.Start(t)
	d, _ := startDemo(t, quick(srv, r, n))
	waitFor(t, 60*time.Second, fmt.Sprintf("fewer than %d releases", releases), func() bool { return d.Stats().Releases >= releases })
	s := d.Stats()
	t.Logf("%s, %d contenders: %d releases, %d wakeups (%.2f per release), %d grants, %d FIFO breaks",
		r, n, s.Releases, s.Wakeups, s.WakeupsPerRelease(), s.Grants, s.FIFOBreaks)
	closeAndCheckGone(t, d, srv)
	return s
}

func TestIntegrationDemoFairWakesOneWaiterPerRelease(t *testing.T) {
	t.Parallel()
	s := herd(t, Exclusive, 6, 40)
	if r := s.WakeupsPerRelease(); r < 0.7 || r > 1.3 {
		t.Errorf("fair lock: %.2f wakeups per release, want about 1", r)
	}
	if s.FIFOBreaks != 0 {
		t.Errorf("fair lock: %d FIFO breaks, want 0", s.FIFOBreaks)
	}
}

func TestIntegrationDemoNaiveWakesTheHerd(t *testing.T) {
	t.Parallel()
	const n = 6
	s := herd(t, Naive, n, 40)
	if r := s.WakeupsPerRelease(); r < n-2.5 || r > n+1 {
		t.Errorf("naive lock: %.2f wakeups per release, want about %d", r, n-1)
	}
	if s.FIFOBreaks == 0 {
		t.Errorf("naive lock: no FIFO break in %d grants; the race for the node should break the order", s.Grants)
	}
}

func TestIntegrationDemoReadWriteAndSemaphore(t *testing.T) {
	t.Parallel()
	for _, r := range []Recipe{ReadWrite, Semaphore} {
		t.Run(string(r), func(t *testing.T) {
			t.Parallel()
			s := herd(t, r, 5, 20)
			if s.FIFOBreaks != 0 {
				t.Errorf("%s: %d FIFO breaks, want 0", r, s.FIFOBreaks)
			}
		})
	}
}

func TestIntegrationDemoControls(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	d, evs := startDemo(t, quick(srv, Exclusive, 4))
	ctx := context.Background()
	waitFor(t, 20*time.Second, "no grants", func() bool { return d.Stats().Grants >= 3 })

	if _, err := d.Add(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "Add did not make five contenders", func() bool { return d.Stats().Contenders == 5 })

	waitFor(t, 10*time.Second, "nobody waits to be killed", func() bool { return d.Stats().Waiting >= 2 })
	msg, err := d.Kill()
	if err != nil || !strings.Contains(msg, "killed contender") {
		t.Fatalf("Kill = %q, %v", msg, err)
	}
	if s := d.Stats(); s.Contenders != 4 {
		t.Fatalf("after Kill, %d contenders, want 4", s.Contenders)
	}
	grants := d.Stats().Grants
	waitFor(t, 10*time.Second, "the chain did not heal after the kill", func() bool { return d.Stats().Grants >= grants+4 })

	// Freeze: the holder stays, nobody else is granted.
	var frozen string
	waitFor(t, 10*time.Second, "no holder to freeze", func() bool {
		frozen, err = d.Freeze()
		return err == nil
	})
	time.Sleep(300 * time.Millisecond) // let a release already under way finish
	stuck := d.Stats()
	time.Sleep(500 * time.Millisecond) // several hold times
	if s := d.Stats(); s.Grants != stuck.Grants || s.Frozen != 1 {
		t.Fatalf("frozen (%s): grants went %d → %d, frozen %d; want no grant and one frozen", frozen, stuck.Grants, s.Grants, s.Frozen)
	}
	if _, err := d.Unfreeze(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "no grant after Unfreeze", func() bool { return d.Stats().Grants > stuck.Grants })
	if _, err := d.Unfreeze(); !errors.Is(err, ErrNoHolder) {
		t.Errorf("Unfreeze with nothing frozen = %v, want ErrNoHolder", err)
	}

	// Lose a reply: an orphan appears and, once it heads the queue, the
	// lock stalls until it is fenced.
	if _, err := d.LoseReply(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "no orphan", func() bool { return len(d.Stats().Orphans) == 1 })
	orphan := d.Stats().Orphans[0]
	conn := srv.Connect(t)
	waitFor(t, 20*time.Second, "the orphan never headed the queue", func() bool {
		names, _, err := conn.Children(d.LockPath())
		if err != nil || len(names) == 0 {
			return false
		}
		head := names[0]
		for _, n := range names {
			if seqOf(n) < seqOf(head) {
				head = n
			}
		}
		return head == path.Base(orphan)
	})
	stalled := d.Stats().Grants
	time.Sleep(500 * time.Millisecond)
	if g := d.Stats().Grants; g != stalled {
		t.Fatalf("grants went on (%d → %d) with the orphan at the head", stalled, g)
	}
	if err := conn.Delete(orphan, -1); err != nil { // what fence does, less its checks
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "orphan not seen gone", func() bool { return len(d.Stats().Orphans) == 0 })
	waitFor(t, 10*time.Second, "no grant after fencing", func() bool { return d.Stats().Grants > stalled+2 })
	if evs.count(OrphanGone) != 1 || evs.count(Killed) != 1 || evs.count(Frozen) != 1 {
		t.Errorf("events: %d orphan-gone, %d killed, %d frozen; want one each",
			evs.count(OrphanGone), evs.count(Killed), evs.count(Frozen))
	}
	closeAndCheckGone(t, d, srv)
}

func TestIntegrationDemoNaiveLostReplyWaitsForItself(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	d, _ := startDemo(t, quick(srv, Naive, 3))
	if _, err := d.LoseReply(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "no orphan", func() bool { return len(d.Stats().Orphans) == 1 })
	stalled := d.Stats().Grants
	time.Sleep(500 * time.Millisecond)
	if g := d.Stats().Grants; g != stalled {
		t.Fatalf("grants went on (%d → %d) while the orphan holds the naive lock", stalled, g)
	}
	if err := srv.Connect(t).Delete(d.LockPath(), -1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "no grant after fencing", func() bool { return d.Stats().Grants > stalled+2 })
	closeAndCheckGone(t, d, srv)
}

func TestIntegrationDemoBusy(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	startDemo(t, quick(srv, Exclusive, 2))
	_, err := Start(context.Background(), quick(srv, Exclusive, 2))
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("a second demo on the same lock = %v, want ErrBusy", err)
	}
	// Another recipe's lock is free.
	d2, err := Start(context.Background(), quick(srv, Naive, 2))
	if err != nil {
		t.Fatal(err)
	}
	d2.Close(context.Background())
	if ok, _, _ := srv.Connect(t).Exists(Root); !ok {
		t.Errorf("closing one demo removed %s while another runs", Root)
	}
}

// TestIntegrationDemoContenderCrash: a contender that panics ends alone,
// with its session; the others go on, and Close still cleans up.
func TestIntegrationDemoContenderCrash(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	cfg := quick(srv, Exclusive, 3)
	cfg.beforeTurn = func(id, turn int) {
		if id == 2 && turn == 3 {
			panic("injected")
		}
	}
	d, evs := startDemo(t, cfg)
	waitFor(t, 20*time.Second, "contender 2 did not crash", func() bool { return evs.count(Crashed) == 1 })
	if s := d.Stats(); s.Contenders != 2 {
		t.Fatalf("after the crash, %d contenders, want 2", s.Contenders)
	}
	grants := d.Stats().Grants
	waitFor(t, 10*time.Second, "no grants after the crash", func() bool { return d.Stats().Grants >= grants+4 })
	closeAndCheckGone(t, d, srv)
}

// Each contender's release that deleted its own node says so with the
// node's token, so that the UI tells it released rather than "released,
// or force-released by another client".
func TestIntegrationDemoReleasesSayTheyDeletedTheirOwnNode(t *testing.T) {
	t.Parallel()
	for _, r := range []Recipe{Exclusive, Naive} {
		srv := zktest.Start(t)
		d, evs := startDemo(t, quick(srv, r, 3))
		waitFor(t, 60*time.Second, "fewer than 10 releases", func() bool { return evs.count(Released) >= 10 })
		// The releases before the close: a hold the close cuts short
		// may end without its delete's reply.
		evs.mu.Lock()
		before := slices.Clone(evs.all)
		evs.mu.Unlock()
		closeAndCheckGone(t, d, srv)
		seen := map[int64]bool{}
		for _, ev := range before {
			if ev.Kind != Released || ev.Err != nil {
				continue
			}
			if ev.DeletedOwn == 0 || seen[ev.DeletedOwn] {
				t.Errorf("%s: contender %d's release of %s says token %#x (0, or one told before)", r, ev.Contender, ev.Node, ev.DeletedOwn)
			}
			seen[ev.DeletedOwn] = true
		}
	}
}
