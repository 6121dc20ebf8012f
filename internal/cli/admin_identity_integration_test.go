package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model/check"
)

// TestIntegrationCheckAnotherServersAdmin: two standalone servers as
// shipped (srvr only, AdminServer on) on one host, and check asked of A
// with B's admin port. B's connections and watches are not A's: before
// they were taken for A's, a healthy Curator queue on A paged CRITICAL
// disconnected-holder and unwatched-waiter. Now B's answers judge
// nothing, the check says why, and A's own admin port judges as before.
func TestIntegrationCheckAnotherServersAdmin(t *testing.T) {
	t.Parallel()
	a := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	b := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	curator := peers.Start(t, peers.Curator, a.Addr())
	curator.Acquire(t, "h", "mutex", "/locks/queue")
	curator.WaitHeld(t, "h", 30*time.Second)
	curator.Acquire(t, "w", "mutex", "/locks/queue")

	checkWith := func(adminPort int) (checkWaitJSON, int) {
		t.Helper()
		out, errOut, code := run(t, "check", "--server", a.Addr(), "--admin-port", fmt.Sprint(adminPort), "--json")
		var got checkWaitJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("invalid JSON (%v): %s %s", err, out, errOut)
		}
		return got, code
	}

	// The waiter's watch reaches A's table on Curator's time: ask A's own
	// AdminServer until the queue is judged whole and healthy.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if got, code := checkWith(a.AdminPort()); code != int(check.OK) || !got.Complete || len(got.Findings) != 0 {
			return fmt.Sprintf("with A's own admin port: exit %d, %+v", code, got)
		}
		return ""
	})

	got, code := checkWith(b.AdminPort())
	for _, f := range got.Findings {
		if f.Status == "CRITICAL" || f.Status == "WARNING" {
			t.Errorf("B's AdminServer judged A's queue: %+v", f)
		}
	}
	if code != int(check.OK) || got.Complete || len(got.NotJudged) == 0 ||
		!strings.Contains(strings.Join(got.NotJudged, "\n"), "could not be proven to be the member's, by "+a.Addr()) {
		t.Errorf("with B's admin port: exit %d, %+v", code, got)
	}
	out, _, _ := run(t, "doctor", "--server", a.Addr(), "--admin-port", fmt.Sprint(b.AdminPort()))
	if want := fmt.Sprintf("is another server's (client port %d", b.Port()); !strings.Contains(out, want) || strings.Contains(out, "admin.enableServer") {
		t.Errorf("doctor should say the AdminServer is %s's and not tell to turn one on:\n%s", b.Addr(), out)
	}
}
