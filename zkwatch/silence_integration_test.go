package zkwatch

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
)

// TestIntegrationSilentOnFollower: on a three-member ensemble, a kazoo
// holder connected to a follower is frozen (SIGSTOP). The follower's own
// answers show it silent past a third of its timeout before its session
// expires, while a live kazoo client on the same follower never is; once
// the session expires, no member lists it.
func TestIntegrationSilentOnFollower(t *testing.T) {
	t.Parallel()
	const timeout = 12 * time.Second
	ens := zktest.StartEnsemble(t, 3, zktest.WithConfig(fmt.Sprintf("minSessionTimeout=%d", timeout.Milliseconds()),
		fmt.Sprintf("maxSessionTimeout=%d", timeout.Milliseconds())))
	members := ens.Members()
	follower := members[(ens.Leader()+1)%3].Addr()
	var addrs []string
	for _, m := range members {
		addrs = append(addrs, m.Addr())
	}
	frozen, live := peers.Start(t, peers.Kazoo, follower), peers.Start(t, peers.Kazoo, follower)
	f := frozen.Acquire(t, "f", "lock", "/silent/lock")
	frozen.WaitHeld(t, "f", time.Minute)
	l := live.Acquire(t, "l", "lock", "/silent/lock")

	e := NewEnricher(addrs, 0)
	poll := func() Enrichment {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return e.Poll(ctx)
	}
	zktest.WaitUntil(t, 30*time.Second, func() string {
		en := poll()
		for _, c := range []peers.Contender{f, l} {
			if ci, ok := en.Clients[c.Session]; !ok || ci.Server != follower || ci.Timeout != timeout {
				return fmt.Sprintf("%s: %+v (listed %v), want on %s with a %v timeout", c.ID, ci, ok, follower, timeout)
			}
		}
		return ""
	})

	frozen.Freeze(t)
	frozeAt := time.Now()
	var silentAt time.Duration
	// The members are asked twice a second, as a watcher would be
	// configured to, until the session is gone.
	ask := time.NewTicker(500 * time.Millisecond)
	defer ask.Stop()
	for ; time.Since(frozeAt) < 2*timeout; <-ask.C {
		en := poll()
		if ci := en.Clients[l.Session]; ci.Link().Liveness() == lockcore.LiveSilent {
			t.Fatalf("the live client reads silent: %+v", ci)
		}
		ci, listed := en.Clients[f.Session]
		if !listed {
			break // expired
		}
		if ci.Link().Liveness() == lockcore.LiveSilent && silentAt == 0 {
			silentAt = time.Since(frozeAt)
			// Its last packet came before the freeze, at most a ping's
			// interval before: more than that is overstated.
			if most := time.Since(frozeAt) + lockcore.SilentAfter(timeout); ci.Silent > most {
				t.Errorf("silent %v after a freeze %v ago: more than it can have been (%v)", ci.Silent, time.Since(frozeAt), most)
			}
		}
	}
	if silentAt == 0 {
		t.Fatalf("the frozen holder never read silent on its follower before it expired (%v after the freeze)", time.Since(frozeAt))
	}
	t.Logf("silent %v after the freeze (timeout %v)", silentAt, timeout)
	zktest.WaitUntil(t, 2*timeout, func() string {
		if ci, listed := poll().Clients[f.Session]; listed {
			return fmt.Sprintf("the frozen holder's session still listed: %+v", ci)
		}
		return ""
	})
}
