package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
)

// TestIntegrationRevokeCurator asks real Curator holders to release: one
// that made its lock revocable releases, and revoke says so (exit 0); one
// that did not keeps holding, and revoke says that it requested, waited,
// and the lock is still held (exit 5), never that it is done.
func TestIntegrationRevokeCurator(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	audit := filepath.Join(t.TempDir(), "audit.log")
	revocable := curator.Acquire(t, "revocable", "mutex+revocable", root+"/rv/polite")
	plain := curator.Acquire(t, "plain", "mutex", root+"/rv/plain")
	curator.WaitHeld(t, "revocable", 30*time.Second)
	curator.WaitHeld(t, "plain", 30*time.Second)
	c := zks.Connect(t)

	t.Run("revocable", func(t *testing.T) {
		_, errOut, code := run(t, "revoke", revocable.Node, "--yes", "--wait", "20s", "--server", zks.Addr(), "--audit-log", audit)
		if code != exitOK || !strings.Contains(errOut, "revoke requested") || !strings.Contains(errOut, "released: ") ||
			!strings.Contains(errOut, "its data is empty") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if ok, _, _ := c.Exists(revocable.Node); ok {
			t.Fatalf("said released, yet %s is there", revocable.Node)
		}
	})

	t.Run("not revocable", func(t *testing.T) {
		start := time.Now()
		_, errOut, code := run(t, "revoke", plain.Node, "--yes", "--wait", "1s", "--server", zks.Addr(), "--audit-log", audit)
		if code != exitStillHeld || !strings.Contains(errOut, "revoke requested") || !strings.Contains(errOut, "still held after 1s") ||
			!strings.Contains(errOut, "most likely did not make it revocable") || strings.Contains(errOut, "done") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if time.Since(start) < time.Second {
			t.Fatalf("did not wait the second asked for: %s", errOut)
		}
		if !curator.Held("plain") {
			t.Fatal("the plain holder let go")
		}
		if data, _, _ := c.Get(plain.Node); string(data) != "__REVOKE__" {
			t.Fatalf("data %q", data)
		}
	})
}
