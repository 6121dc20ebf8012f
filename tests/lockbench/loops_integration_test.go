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
// and counters that moved. It asserts nothing about speed: its window ends
// once each contender has acquired three times, however long that takes on
// a loaded machine, and fails only when the loops stop acquiring.
func TestIntegrationLoops(t *testing.T) {
	zks := zktest.Start(t, zktest.WithConfig(fmt.Sprintf("maxSessionTimeout=%d", lockbench.SessionTimeout.Milliseconds())))
	for _, client := range lockbench.Clients {
		t.Run(string(client), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			r, err := lockbench.Run(ctx, lockbench.Config{
				Client: client, Contenders: 2, Addr: zks.Addr(), Path: "/lockbench-smoke/" + string(client),
				Warmup: 200 * time.Millisecond, Until: 3, Logf: t.Logf,
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
			// Whether a contender waits on another's node at all is the
			// interleaving's, which load changes; what any run must show
			// is counted over the whole run, between two moments when
			// nothing moves (see Tally), so that releases and
			// notifications are the same events on both sides.
			tl := r.Tally
			t.Logf("the run: %d releases (%d in the window), the server sent %d notifications, the connections received %d, %d releases told their holder",
				tl.Releases, r.Releases, tl.Notifications, tl.Received, tl.Told)
			if tl.Releases < r.Releases {
				t.Errorf("the run tallied %d releases, its window alone %d", tl.Releases, r.Releases)
			}
			if !tl.InProcess {
				return
			}
			// Every notification the server sent reached a connection
			// of ours, and no other: the connections counted what the
			// server sent.
			if tl.Received != tl.Notifications {
				t.Errorf("the connections received %d notifications in the run, the server sent %d", tl.Received, tl.Notifications)
			}
			// Ours watches its own node from its create until its
			// delete, and the notification reaches its connection before
			// the delete's reply: each release is told once.
			if client == lockbench.Ours && (tl.Named != tl.Releases || tl.Told != tl.Releases) {
				t.Errorf("%d of %d releases told their holder of its own node's deletion (%d named their node); untold: %v",
					tl.Told, tl.Releases, tl.Named, tl.Untold)
			}
		})
	}
}
