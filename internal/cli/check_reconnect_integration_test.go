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
// cores are busy. The first answer lists no connection of its session
// (once the server has heard of the drop, and until the handshake lands);
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

	old := clientOf(t, zks.Addr(), holder.Session)

	stop := cpuload.Busy(20 * time.Second)
	defer stop()
	proxy.Delay(1200 * time.Millisecond)
	proxy.Drop()
	// The server hears of the dropped connection when its selector runs,
	// which a starved JVM may not do at once; each chunk of the holder's
	// new handshake is held 1.2 s, so the session is between connections
	// from then until the handshake lands.
	zktest.WaitUntil(t, 20*time.Second, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conns, err := consOf(ctx, zks.Addr())
		if err != nil {
			return fmt.Sprintf("the server's connections: %v", err)
		}
		for _, c := range conns {
			if c.Client == old {
				return "the server still lists the dropped connection " + old
			}
		}
		return ""
	})
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

// consOf is the connections the server at addr lists in cons.
func consOf(ctx context.Context, addr string) ([]words.Connection, error) {
	text, err := words.FourLetter(ctx, addr, "cons")
	if err != nil {
		return nil, err
	}
	return words.ParseCons(text)
}

// clientOf returns the client address of the connection the server at
// addr lists for session.
func clientOf(t *testing.T, addr string, session int64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conns, err := consOf(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		if c.Session == session {
			return c.Client
		}
	}
	t.Fatalf("the server lists no connection of session %#x: %+v", session, conns)
	return ""
}
