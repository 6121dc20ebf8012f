package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

func TestIntegrationTUI(t *testing.T) {
	t.Parallel()
	bin := zklocksbin.Path(t)
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())

	holder := curator.Acquire(t, "c-holder", "mutex", "/tui/orders")
	curator.WaitHeld(t, "c-holder", 30*time.Second)
	w1 := curator.Acquire(t, "c-waiter-1", "mutex", "/tui/orders")
	w2 := curator.Acquire(t, "c-waiter-2", "mutex", "/tui/orders")
	kazoo.Acquire(t, "k-holder", "lock", "/tui/jobs")
	kazoo.WaitHeld(t, "k-holder", 30*time.Second)
	kazoo.Acquire(t, "k-waiter", "lock", "/tui/jobs")

	dir := t.TempDir()
	command := fmt.Sprintf("TERM=xterm-256color %s --server %s --config '' --log-file %s --root /tui",
		bin, zks.Addr(), filepath.Join(dir, "zk.log"))
	s := tmuxscreen.Start(t, 120, 40, command)

	// The locks screen lists both locks, with holders and waiters counted.
	s.WaitFor("both locks listed, synced (updated)", func(sc string) bool {
		return strings.Contains(sc, "/tui/orders") && strings.Contains(sc, "/tui/jobs") &&
			strings.Contains(sc, "curator-mutex") && strings.Contains(sc, "kazoo-lock") &&
			strings.Contains(sc, "updated") && !strings.Contains(sc, "STALE")
	})

	// The detail: the holder and its waiters in queue order.
	s.Keys("/", "orders", "Enter", "Enter")
	// A contender as the detail shows it at any width: kind and sequence.
	short := func(c peers.Contender) string { return "-lock-" + c.Node[len(c.Node)-10:] }
	sc := s.WaitText("/tui/orders  curator-mutex", "1 holding", "2 waiting", short(holder), short(w1), short(w2))
	for _, c := range []peers.Contender{holder, w1, w2} {
		if !strings.Contains(sc, fmt.Sprintf("0x%x", c.Session)) {
			t.Fatalf("session 0x%x of %s not shown:\n%s", c.Session, c.ID, sc)
		}
	}
	// The second waiter's chain: one hop per line, on to the holder.
	s.Keys("j", "j")
	s.WaitFor("the chain of the last waiter", func(sc string) bool {
		return lineWith(sc, "waits on", "→ #1") && lineWith(sc, "→ #0", "holder")
	})

	// A waiter released by its client disappears live.
	curator.Release(t, "c-waiter-1")
	s.WaitFor("c-waiter-1 gone", func(sc string) bool {
		return !strings.Contains(sc, short(w1)) && strings.Contains(sc, "1 waiting") && strings.Contains(sc, short(w2))
	})

	// Back on the list, the counts follow; esc clears the filter; q quits.
	s.Keys("Escape")
	s.WaitFor("the filtered list", func(sc string) bool {
		return lineWith(sc, "/tui/orders", "curator-mutex", " 1    1 ") && strings.Contains(sc, "1 match /orders")
	})
	s.Keys("Escape")
	s.WaitText("/tui/jobs", "kazoo-lock")
	s.Keys("q")
	s.WaitFor("the shell back after q", func(sc string) bool { return !strings.Contains(sc, "/tui/jobs") })
}

// lineWith reports whether one line of screen contains every text.
func lineWith(screen string, texts ...string) bool {
	for _, line := range strings.Split(screen, "\n") {
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(line, x)
		}
		if ok {
			return true
		}
	}
	return false
}

// TestIntegrationTUIAcquire takes a lock from the UI: our node waits behind
// a Curator holder, is granted when the holder's client releases, shows its
// fencing token, and goes when r releases it; a lock still held when the
// UI quits is released on the way out.
func TestIntegrationTUIAcquire(t *testing.T) {
	t.Parallel()
	bin := zklocksbin.Path(t)
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	holder := curator.Acquire(t, "c-holder", "mutex", "/tui/ops")
	curator.WaitHeld(t, "c-holder", 30*time.Second)

	dir := t.TempDir()
	command := fmt.Sprintf("TERM=xterm-256color %s --server %s --config '' --log-file %s --audit-log %s --root /tui",
		bin, zks.Addr(), filepath.Join(dir, "zk.log"), filepath.Join(dir, "audit.log"))
	s := tmuxscreen.Start(t, 120, 40, command)
	s.WaitFor("the lock listed, synced", func(sc string) bool {
		return strings.Contains(sc, "/tui/ops") && strings.Contains(sc, "updated") && !strings.Contains(sc, "STALE")
	})
	s.Keys("Enter")
	s.WaitText("/tui/ops  curator-mutex", "1 holding", holder.Node[len(holder.Node)-10:])

	// a asks the mode; e acquires: our node waits behind the holder.
	s.Keys("a")
	s.WaitText("Acquire /tui/ops?", "e exclusive")
	s.Keys("e")
	sc := s.WaitFor("our node waiting behind the holder", func(sc string) bool {
		return lineWith(sc, "★ ours", "waiting #1", "watches #0") && lineWith(sc, " *  1 waiter") &&
			strings.Contains(sc, "◌ waiting /tui/ops")
	})
	var ours string
	for _, line := range strings.Split(sc, "\n") {
		if strings.HasPrefix(line, " *  1 waiter") {
			ours = strings.Fields(line)[4] // our node, as shortened; its sequence ends it
		}
	}
	if ours == "" {
		t.Fatalf("our node's row not found:\n%s", sc)
	}

	// The holder's client releases: we hold, with a fencing token.
	curator.Release(t, "c-holder")
	s.WaitFor("our lock held", func(sc string) bool {
		return lineWith(sc, "★ ours", "held · fencing token 0x") && strings.Contains(sc, "● holding /tui/ops") &&
			lineWith(sc, "*  0 holder", ours[len(ours)-10:])
	})

	// r releases it: our node disappears.
	s.Keys("r")
	s.WaitFor("our node gone", func(sc string) bool {
		return !strings.Contains(sc, ours) && !strings.Contains(sc, "★ ours") && strings.Contains(sc, "released /tui/ops")
	})

	// Held when the UI quits: released on the way out, and said so.
	s.Keys("a", "e")
	s.WaitText("held · fencing token 0x", "● holding /tui/ops")
	s.Keys("q")
	s.WaitFor("the release reported after quitting", func(sc string) bool {
		return strings.Contains(sc, "zklocks: released /tui/ops (token 0x")
	})
}
