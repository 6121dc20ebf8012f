package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// A waiter whose process is killed (SIGKILL, a real kazoo client in a
// process of its own) loses its watches with its connection, while its
// session, and its node, live on until the timeout: show and check tell it
// as disconnected, a warning that resolves on its own, never as the
// critical unwatched-waiter, from the moment the members answer without
// it until its node goes.
func TestIntegrationKilledWaiterIsDisconnectedNotUnwatched(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()
	const lock = "/locks/dead-waiter"
	holders := peers.Start(t, peers.Kazoo, server)
	holders.Acquire(t, "holder", "lock", lock)
	holders.WaitHeld(t, "holder", 30*time.Second)
	waiters := peers.Start(t, peers.Kazoo, server)
	waiter := waiters.Acquire(t, "waiter", "lock", lock)
	wantSession := fmt.Sprintf("0x%x", waiter.Session)

	// Alive, the waiter watches its predecessor: nothing to report.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if k := kinds(show(t, server, lock)); len(k) != 0 {
			return fmt.Sprintf("anomalies %v before the kill", k)
		}
		return ""
	})

	waiters.Kill(t)
	admin := zks.Connect(t)
	sawCheck, sawShow := false, false
	for !sawCheck || !sawShow {
		if ok, _, err := admin.Exists(waiter.Node); err != nil || !ok {
			t.Fatalf("the dead waiter's node went (%v) before show and check told it as disconnected (check %v, show %v)", err, sawCheck, sawShow)
		}
		out, errOut, _ := run(t, "check", "--server", server, "--json", lock)
		var got checkWaitJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("check --json: %v: %s %s", err, out, errOut)
		}
		for _, f := range got.Findings {
			switch f.Kind {
			case "unwatched-waiter":
				t.Fatalf("check called the killed waiter unwatched: %+v", got)
			case "disconnected-waiter":
				if f.Status != "WARNING" || f.Session == nil || *f.Session != wantSession || got.Status != "WARNING" {
					t.Errorf("check: finding %+v in %s, want a WARNING on session %s", f, got.Status, wantSession)
				}
				sawCheck = true
			}
		}
		k := kinds(show(t, server, lock))
		if slices.Contains(k, "unwatched-waiter") {
			t.Fatalf("show called the killed waiter unwatched: %v", k)
		}
		sawShow = sawShow || slices.Contains(k, "disconnected-waiter")
	}
	// Once its session expires, its node goes and the queue moves on.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if ok, _, err := admin.Exists(waiter.Node); err != nil || ok {
			return "the dead waiter's node is still there"
		}
		return ""
	})
	if k := kinds(show(t, server, lock)); len(k) != 0 {
		t.Errorf("anomalies %v after the dead waiter's session expired", k)
	}
}
