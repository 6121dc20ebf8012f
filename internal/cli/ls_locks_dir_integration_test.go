package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/model/check"
)

// A root whose one child is locks/ is a directory of locks, not a Curator
// semaphore: ls lists the mutex below it, and check judges that mutex.
func TestIntegrationLsUnderADirectoryNamedLocks(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	app := root + "/app"
	curator := peers.Start(t, peers.Curator, zks.Addr())
	curator.Acquire(t, "holder", "mutex", app+"/locks/held")
	curator.WaitHeld(t, "holder", 30*time.Second)
	curator.Acquire(t, "waiter", "mutex", app+"/locks/held")

	out, errOut, code := run(t, "ls", "--json", "--server", zks.Addr(), "--root", app)
	if code != exitOK {
		t.Fatalf("ls exited %d: %s", code, errOut)
	}
	var ls struct {
		Locks []struct {
			Path    string `json:"path"`
			Recipe  string `json:"recipe"`
			Waiters int    `json:"waiters"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(ls.Locks) != 1 || ls.Locks[0].Path != app+"/locks/held" || ls.Locks[0].Recipe != "curator-mutex" || ls.Locks[0].Waiters != 1 {
		t.Fatalf("ls --root %s: want the one mutex at %s/locks/held with its waiter, got %s", app, app, out)
	}
	out, _, code = run(t, "check", "--server", zks.Addr(), "--root", app, "--warn-waiters", "1")
	if code != int(check.Warning) || !strings.Contains(out, app+"/locks/held") {
		t.Fatalf("check --warn-waiters 1 on the waited-for mutex: exit %d:\n%s", code, out)
	}
}
