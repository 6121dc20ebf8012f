package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"

	"github.com/zklocks/zklocks/lockclient"
)

// TestIntegrationOwnAcquireWatches takes a lock from the UI's actions, as
// the UI wires them, behind a real Curator holder, while the UI's watcher
// reads the servers' watch table: our waiter is judged by the watch its
// client really set (not flagged unwatched), and once we give up, no watch
// of ours is left on the former predecessor, so another zklocks sees no
// herd when a Curator waiter queues there next.
func TestIntegrationOwnAcquireWatches(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	lockPath := root + "/own/orders"
	holder := curator.Acquire(t, "holder", "mutex", lockPath)
	curator.WaitHeld(t, "holder", 30*time.Second)

	ctx := t.Context()
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{})
	opt := uiOptions(settings{server: zks.Addr(), timeout: 10 * time.Second}, conn, nil)
	feed := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{root + "/own"}, EnrichEvery: 200 * time.Millisecond,
		WatchMode: zkwatch.WatchesServer})

	// Our acquisition queues behind the holder.
	actx, giveUp := context.WithCancel(ctx)
	progress := make(chan lockclient.Progress, 16)
	acquired := make(chan error, 1)
	go func() {
		h, err := opt.Actions.Acquire(actx, lockclient.Spec{Path: lockPath, Mode: lockcore.ModeExclusive,
			Progress: func(p lockclient.Progress) { progress <- p }})
		if h != nil {
			_ = h.Release(context.Background())
			err = errors.New("granted while the holder holds")
		}
		acquired <- err
	}()
	var ours lockclient.Progress
	select {
	case ours = <-progress:
	case err := <-acquired:
		t.Fatalf("the acquisition returned before waiting: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("our node never waited")
	}

	// Once the watch table is newer than our node, our waiter is judged
	// by it: it watches the holder, as its recipe says.
	judged := feed.UntilEvent(t, "the lock analysed against a watch table that holds our node", func(ev zkwatch.Event) bool {
		return ev.Kind == zkwatch.EventLock && ev.Path == lockPath && ev.Lock.WatchesSource == lockcore.WatchesFromServer &&
			participant(ev.Lock, ours.Node) != nil
	})
	for _, a := range judged.Lock.Anomalies {
		if a.Kind == lockcore.AnomalyUnwatchedWaiter {
			t.Fatalf("our own waiter flagged by a fresh table: %s", a.Detail)
		}
	}
	if p := participant(judged.Lock, ours.Node); p.Watches == nil || p.Watches.Path != holder.Node {
		t.Fatalf("our waiter watches %+v by the servers' table, not the holder %s", p.Watches, holder.Node)
	}

	// Giving up leaves no watch of ours behind.
	giveUp()
	if err := <-acquired; !errors.Is(err, context.Canceled) {
		t.Fatalf("giving up: %v", err)
	}
	other := watchtest.Dial(t, zks.Addr(), zkwatch.Options{})
	waiter := curator.Acquire(t, "waiter", "mutex", lockPath)
	var watchers []int64
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		table, err := other.ServerWatches(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The holder's node: the Curator waiter's watch, and no other.
		if watchers = table.Watchers(holder.Node); fmt.Sprint(watchers) == fmt.Sprint([]int64{waiter.Session}) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("watchers of the holder's node %s: %#x, want only the Curator waiter's %#x", holder.Node, watchers, waiter.Session)
		}
	}
	if ui := conn.SessionID(); slices.Contains(watchers, ui) {
		t.Fatalf("the UI's session %#x watches %s", ui, holder.Node)
	}

	// A lock granted is held on its own session, which its release closes.
	h, err := opt.Actions.Acquire(ctx, lockclient.Spec{Path: root + "/own/free", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	if h.Session == conn.SessionID() {
		t.Fatalf("our lock is held on the UI's own session %#x", h.Session)
	}
	if !connected(t, zks.Addr(), h.Session) {
		t.Fatalf("session %#x of our lock is not connected", h.Session)
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); connected(t, zks.Addr(), h.Session); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("session %#x outlived the release of its lock", h.Session)
		}
	}
}

// connected reports whether the server at addr lists session in cons.
func connected(t *testing.T, addr string, session int64) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	text, err := words.FourLetter(ctx, addr, "cons")
	if err != nil {
		t.Fatal(err)
	}
	conns, err := words.ParseCons(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		if c.Session == session {
			return true
		}
	}
	return false
}

func participant(l *lockcore.Lock, node string) *lockcore.Participant {
	for i, p := range l.Participants {
		if p.Path == node {
			return &l.Participants[i]
		}
	}
	return nil
}
