package zkwatch

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/cpuload"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationTalkingAcrossALateAnswer: live kazoo and Curator holders,
// on a machine whose cores are busy, are asked about every 2 s, then once
// more than their session timeout after the answer before (a poll held
// up by a busy UI or a slow member), then every 2 s again. Once they read
// talking, every answer must read them talking and none silent: their
// Links stay the same from one answer to the next. Dated by the answer before
// the late one, their last ping was placed a timeout back, and they read
// as not talking for one answer, which linked again every lock they own.
func TestIntegrationTalkingAcrossALateAnswer(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	kazoo, curator := peers.Start(t, peers.Kazoo, zks.Addr()), peers.Start(t, peers.Curator, zks.Addr())
	holders := []peers.Contender{kazoo.Acquire(t, "k", "lock", "/late/kazoo"), curator.Acquire(t, "c", "mutex", "/late/curator")}
	kazoo.WaitHeld(t, "k", time.Minute)
	curator.WaitHeld(t, "c", time.Minute)

	e := NewEnricher([]string{zks.Addr()}, 0)
	poll := func() Enrichment {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return e.Poll(ctx)
	}
	stop := cpuload.Busy(2 * time.Minute)
	defer stop()
	var timeout time.Duration
	var prev time.Time
	zktest.WaitUntil(t, 30*time.Second, func() string {
		en := poll()
		prev = en.ClientsAsked
		for _, h := range holders {
			ci, ok := en.Clients[h.Session]
			if !ok || ci.Timeout == 0 || !ci.Link().Talking {
				return fmt.Sprintf("%s: %+v (listed %v), want listed with its timeout, talking", h.ID, ci, ok)
			}
			timeout = max(timeout, ci.Timeout)
		}
		return ""
	})

	// The time before each ask: the spacing is what is tested.
	gaps := []time.Duration{2 * time.Second, 2 * time.Second, timeout + 3*time.Second, 2 * time.Second, 2 * time.Second}
	for i, gap := range gaps {
		time.Sleep(gap)
		en := poll()
		for _, h := range holders {
			ci, ok := en.Clients[h.Session]
			if !ok {
				t.Fatalf("answer %d: %s not listed: %+v", i, h.ID, en.ClientsNote)
			}
			if k := ci.Link(); k.Silent.For > 0 {
				t.Errorf("answer %d: live %s reads silent: %+v", i, h.ID, k.Silent)
			} else if !k.Talking {
				t.Errorf("answer %d, %v after the one before: live %s not talking (heard %v before the ask, timeout %v)",
					i, en.ClientsAsked.Sub(prev).Round(time.Millisecond), h.ID, ci.Asked.Sub(ci.Heard).Round(time.Millisecond), ci.Timeout)
			}
		}
		prev = en.ClientsAsked
	}
}
