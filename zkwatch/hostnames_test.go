package zkwatch

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// settle waits until no lookup of n is under way.
func settle(t *testing.T, n *names) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		n.mu.Lock()
		pending := false
		for _, a := range n.known {
			pending = pending || a.pending
		}
		n.mu.Unlock()
		if !pending {
			return
		}
		if time.Now().After(end) {
			t.Fatal("a lookup never ended")
		}
	}
}

func TestNamesNeverWaitAndCache(t *testing.T) {
	var mu sync.Mutex
	lookups := map[string]int{}
	count := func(host string) int {
		mu.Lock()
		defer mu.Unlock()
		return lookups[host]
	}
	n := newNames()
	n.lookup = func(ctx context.Context, host string) ([]string, error) {
		mu.Lock()
		lookups[host]++
		mu.Unlock()
		switch host {
		case "10.0.0.7":
			return []string{"worker-7.prod."}, nil
		case "10.0.0.8":
			<-ctx.Done() // a resolver that hangs
			return nil, ctx.Err()
		}
		return nil, errors.New("no such host")
	}
	clients := map[int64]ClientInfo{
		1: {Session: 1, Client: "10.0.0.7:4711"}, 2: {Session: 2, Client: "10.0.0.8:4712"},
		3: {Session: 3, Client: "10.0.0.9:4713"}, 4: {Session: 4, Client: "not-an-address"},
	}
	if got := n.named(clients); got[1].Name != "" {
		t.Fatalf("a name before any lookup ended: %+v", got[1])
	}
	settle(t, n)
	got := n.named(clients)
	for s, want := range map[int64]string{1: "worker-7.prod", 2: "", 3: "", 4: ""} {
		if got[s].Name != want {
			t.Errorf("session %d: name %q, want %q", s, got[s].Name, want)
		}
	}
	if clients[1].Name != "" {
		t.Error("named changed the map it was given")
	}
	settle(t, n)
	n.named(clients)
	if count("10.0.0.7") != 1 || count("10.0.0.8") != 1 || count("not-an-address") != 0 {
		t.Errorf("each host is looked up once, answers (and their absence) kept: %d %d", count("10.0.0.7"), count("10.0.0.8"))
	}
	// An answer older than nameKeep is asked again.
	n.now = func() time.Time { return time.Now().Add(2 * nameKeep) }
	n.named(clients)
	settle(t, n)
	if count("10.0.0.7") != 2 {
		t.Errorf("a stale answer is asked again: %d lookups", count("10.0.0.7"))
	}
}
