package model_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/cpuload"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationWatcherLiveHolderReconnecting: a live kazoo holder's
// connection is dropped, again and again, just before the watcher asks the
// members (every 5 s, as the UI, serve and the exporter do), through a
// proxy that holds each chunk 1.2 s, on a machine whose cores are busy. It
// is handshaking again as its member answers cons, so complete answers
// list it nowhere; judged on one of them, the state read a holder that
// never lost its lock as disconnected-holder, a critical. It must never
// read so, and it must still hold on its session at the end.
func TestIntegrationWatcherLiveHolderReconnecting(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	kazoo := peers.Start(t, peers.Kazoo, proxy.Addr())
	const lockPath = "/locks/reconnecting"
	holder := kazoo.Acquire(t, "h", "lock", lockPath)
	kazoo.WaitHeld(t, "h", 30*time.Second)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	target, err := zkwatch.ParseConnectString(zks.Addr())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	events := zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{"/locks"}}).Events()
	s := model.NewState()

	stop := cpuload.Busy(3 * time.Minute)
	defer stop()
	proxy.Delay(1200 * time.Millisecond)
	// Whether each complete answer since the lock was seen listed the
	// holder.
	var answers []bool
	misses := func() int {
		return len(answers) - len(slices.DeleteFunc(slices.Clone(answers), func(listed bool) bool { return !listed }))
	}
	var dropAt <-chan time.Time
	// ticks is the period's phase: the ask that came earliest in its
	// period of all so far. An ask comes after its tick by what the poll
	// took (srvr before cons, the first one slowest), and the first one
	// with the lock may be an early poll for the lock's discovery, off
	// the period: taken from that one, the drops all came after the asks
	// they were meant for on a loaded machine, and no answer missed the
	// holder.
	var ticks time.Time
	const period = 5 * time.Second
	drops := 0
	deadline := time.After(10 * time.Minute) // a backstop: drops bound the loop
	for misses() < 3 {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the watcher ended")
			}
			s.Apply(ev)
			if k := s.Link(holder.Session); k.State == lockcore.LinkDisconnected {
				t.Fatalf("a live holder reconnecting read as disconnected after %d answers (%v): %+v", len(answers), answers, k)
			}
			if l := s.Locks[lockPath]; l != nil && slices.Contains(model.AnomalyKinds(l), string(lockcore.AnomalyDisconnectedHolder)) {
				t.Fatalf("a live holder reconnecting read as %s after %d answers (%v)", lockcore.AnomalyDisconnectedHolder, len(answers), answers)
			}
			if ev.Kind != zkwatch.EventServers || !ev.ClientsComplete || s.Locks[lockPath] == nil {
				continue
			}
			_, listed := ev.Clients[holder.Session]
			answers = append(answers, listed)
			if asked := ev.ClientsAsked; ticks.IsZero() || asked.Sub(ticks)%period > period/2 {
				ticks = asked
			}
			dropAt = nil
			if listed {
				// The watcher asks every period from its first ask (and
				// a second look between): drop the holder's connection
				// half a second before the next period's, so that it is
				// handshaking again through the slow proxy then.
				next := ticks
				for next.Before(time.Now().Add(time.Second)) {
					next = next.Add(period)
				}
				dropAt = time.After(time.Until(next.Add(-500 * time.Millisecond)))
			}
		case <-dropAt:
			if drops++; drops > 20 {
				t.Fatalf("20 drops, and the watcher's answers never missed the reconnecting holder three times: %v", answers)
			}
			dropAt = nil
			proxy.Drop()
		case <-deadline:
			t.Fatalf("the watcher's answers stopped coming: %v", answers)
		}
	}
	stop()
	t.Logf("answers listing the holder: %v", answers)

	// It was live: it still holds, on the same session, connected again.
	proxy.Delay(0)
	zktest.WaitUntil(t, 30*time.Second, func() string {
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		defer ccancel()
		cons, err := words.FourLetter(cctx, zks.Addr(), "cons")
		if err != nil || !kazoo.Held("h") || !strings.Contains(cons, fmt.Sprintf("sid=0x%x,", holder.Session)) {
			return "the holder is not back on its session"
		}
		return ""
	})
}
