package lockbench_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/tests/lockbench"
)

// TestIntegrationLoops runs every client's loop briefly with two
// contenders, so that the loop programs keep compiling and speaking the
// protocol, and checks what any run must show: acquisitions, no overlap,
// and counters that moved. It asserts nothing about speed.
func TestIntegrationLoops(t *testing.T) {
	zks := zktest.Start(t, zktest.WithConfig(fmt.Sprintf("maxSessionTimeout=%d", lockbench.SessionTimeout.Milliseconds())))
	for _, client := range lockbench.Clients {
		t.Run(string(client), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			r, err := lockbench.Run(ctx, lockbench.Config{
				Client: client, Contenders: 2, Addr: zks.Addr(), Path: "/lockbench-smoke/" + string(client),
				Warmup: 200 * time.Millisecond, Window: time.Second, Logf: t.Logf,
			})
			if err != nil {
				t.Fatal(err)
			}
			if r.Acquisitions == 0 || r.Releases == 0 || len(r.Handoffs) == 0 {
				t.Fatalf("%d acquisitions, %d releases, %d handoffs in %v", r.Acquisitions, r.Releases, len(r.Handoffs), r.Elapsed)
			}
			if r.Overlaps != 0 {
				t.Errorf("%d acquisitions returned before the previous holder released", r.Overlaps)
			}
			if r.Requests < int64(2*r.Acquisitions) {
				t.Errorf("%d requests for %d acquisitions: the server's counters did not follow", r.Requests, r.Acquisitions)
			}
			// Two contenders in one process may never queue behind each
			// other in a second (kazoo's threads share one interpreter):
			// no waiter, no notification. When the connections received
			// some, the server must have counted some (the two are read
			// at slightly different edges of the window).
			if got := r.Received.Own + r.Received.Wakes; got > 0 && r.Notifications == 0 {
				t.Errorf("the server counted no notification, the connections received %d: its counters did not follow", got)
			}
			// Whether a contender waits on another's node at all is the
			// interleaving's, which load changes (a waiter whose
			// predecessor went before its watch was set wakes by no
			// notification): what any in-process run must show is that
			// the connections counted what the server sent. Ours
			// watches its own node until it deletes it, and the
			// notification reaches its connection before the delete's
			// reply: one for each release. Every notification the
			// server counted beyond those about their own node is a
			// wake-up. The window's edges put up to one notification a
			// contender on either side.
			if r.Received.InProcess {
				edge := int64(r.Contenders)
				if client == lockbench.Ours && r.Received.Own < int64(r.Releases)-edge {
					t.Errorf("%d notifications about their own node received for %d releases", r.Received.Own, r.Releases)
				}
				if r.Notifications-r.Received.Own > 2*edge && r.Received.Wakes == 0 {
					t.Errorf("no wake-ups received in process, where the server sent %d notifications, %d of them about their own node",
						r.Notifications, r.Received.Own)
				}
			}
		})
	}
}
