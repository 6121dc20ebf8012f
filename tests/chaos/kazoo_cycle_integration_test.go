//go:build !race

package chaos

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationChaosKazooReaderCycle checks the evidence the chaos run
// gives a kazoo reader up on: none while the reader waits on the write
// queued before it, and the watch on the later write once kazoo 2.8's
// ReadLock has turned to it (W1 holding, R2 reading, W3 writing; W1 goes).
func TestIntegrationChaosKazooReaderCycle(t *testing.T) {
	srv := zktest.Start(t)
	members := []*zktest.Server{srv}
	observer := srv.Connect(t)
	p := peers.Start(t, peers.Kazoo, srv.Addr())
	const dir = "/cycle"

	w1 := p.Acquire(t, "w1", "write", dir)
	p.WaitHeld(t, "w1", time.Minute)
	r2 := p.Acquire(t, "r2", "read", dir)
	awaitWatch(t, srv, r2.Session, w1.Node)
	if ev := kazooReaderCycle(observer, members, dir, r2.Session); ev != "" {
		t.Errorf("a reader waiting on the write before it is called deadlocked: %s", ev)
	}

	w3 := p.Acquire(t, "w3", "write", dir)
	p.Release(t, "w1")
	awaitWatch(t, srv, r2.Session, w3.Node)
	ev := kazooReaderCycle(observer, members, dir, r2.Session)
	if !strings.Contains(ev, "watches the write node "+path.Base(w3.Node)) || !strings.Contains(ev, "after its own "+path.Base(r2.Node)) {
		t.Errorf("the deadlocked reader's evidence is %q, want its watch on %s", ev, path.Base(w3.Node))
	}

	// Given up, the reader frees the writer, as the chaos run relies on.
	p.Release(t, "r2")
	p.WaitHeld(t, "w3", time.Minute)
	p.Release(t, "w3")
}

// awaitWatch waits until session watches node, by srv's wchc.
func awaitWatch(t *testing.T, srv *zktest.Server, session int64, node string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		text, err := words.FourLetter(ctx, srv.Addr(), "wchc")
		cancel()
		if err == nil {
			watches, err := words.ParseWchc(text)
			if err == nil && slices.Contains(watches[session], node) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("session 0x%x never watched %s (wchc: %v %s)", session, node, err, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
