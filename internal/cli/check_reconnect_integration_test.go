package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/cpuload"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationCheckLiveHolderReconnecting: a live kazoo holder whose
// connection dropped is handshaking again, through a proxy that holds
// each chunk 1.2 s, as check asks the member's cons, on a machine whose
// cores are busy. The first answer lists no connection of its session;
// judged on it, check paged CRITICAL disconnected-holder for a holder that
// never lost its lock. The second look finds it connected again.
func TestIntegrationCheckLiveHolderReconnecting(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	kazoo := peers.Start(t, peers.Kazoo, proxy.Addr())
	holder := kazoo.Acquire(t, "h", "lock", "/locks/reconnecting")
	kazoo.WaitHeld(t, "h", 30*time.Second)
	sid := fmt.Sprintf("sid=0x%x,", holder.Session)

	stop := cpuload.Busy(20 * time.Second)
	defer stop()
	proxy.Delay(1200 * time.Millisecond)
	proxy.Drop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cons, err := words.FourLetter(ctx, zks.Addr(), "cons"); err != nil || strings.Contains(cons, sid) {
		t.Fatalf("the holder's session should be between connections now (cons: %v):\n%s", err, cons)
	}
	out, errOut, code := run(t, "check", "--server", zks.Addr(), "--json")
	stop()
	var got checkWaitJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("invalid JSON (%v): %s %s", err, out, errOut)
	}
	if code != int(check.OK) || len(got.Findings) != 0 || !got.Complete {
		t.Errorf("a live holder reconnecting was judged: exit %d, %+v", code, got)
	}
	// It was live: it still holds, on the same session, connected again.
	// Each look has its own deadline: the first one's may have passed
	// while check ran on the busy machine, and an ended context would make
	// every later look fail.
	zktest.WaitUntil(t, 20*time.Second, func() string {
		look, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if cons, _ := words.FourLetter(look, zks.Addr(), "cons"); !strings.Contains(cons, sid) || !kazoo.Held("h") {
			return "the holder is not back on its session"
		}
		return ""
	})
}
