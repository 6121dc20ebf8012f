package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
)

// TestIntegrationSecondOperatorRelease: two operators run release on one
// holder of a real Curator lock. Exactly one delete happens; the second
// is refused, deletes nothing (least of all the next holder's node), and
// says why in words without package prefixes: at once, from the other
// operator's line in this machine's audit log, or, racing, when the node
// went and what its session says.
func TestIntegrationSecondOperatorRelease(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	lockPath := root + "/second/orders"
	first := curator.Acquire(t, "first", "mutex", lockPath)
	curator.WaitHeld(t, "first", 30*time.Second)
	second := curator.Acquire(t, "second", "mutex", lockPath)
	third := curator.Acquire(t, "third", "mutex", lockPath)
	c := zks.Connect(t)
	dir := t.TempDir()
	noPrefix := func(text string) {
		t.Helper()
		for _, p := range []string{"lockcore:", "zk:", "zkwatch:"} {
			if strings.Contains(text, p) {
				t.Fatalf("a package prefix in what the operator reads: %q", text)
			}
		}
	}

	t.Run("one after the other", func(t *testing.T) {
		audit := filepath.Join(dir, "shared-audit.log")
		_, errOut, code := run(t, "release", "--force", "--yes", first.Node, "--server", zks.Addr(), "--audit-log", audit)
		if code != exitOK {
			t.Fatalf("the first operator: exit %d: %s", code, errOut)
		}
		curator.WaitHeld(t, "second", 30*time.Second)
		_, errOut, code = run(t, "release", "--force", "--yes", first.Node, "--server", zks.Addr(), "--audit-log", audit)
		if code != exitFailed || !strings.Contains(errOut, "force-release refused, nothing was changed") ||
			!strings.Contains(errOut, "the audit log says it was force-released by ") ||
			!strings.Contains(errOut, "from the command line on ") || !strings.Contains(errOut, " UTC") {
			t.Fatalf("the second operator: exit %d: %s", code, errOut)
		}
		noPrefix(errOut)
		log, err := os.ReadFile(audit)
		if err != nil {
			t.Fatal(err)
		}
		host, _ := os.Hostname()
		if n := strings.Count(string(log), "\n"); n != 1 || !strings.Contains(string(log), `"result":"ok"`) ||
			!strings.Contains(string(log), `"via":"cli"`) || !strings.Contains(string(log), `"host":"`+host+`"`) {
			t.Fatalf("the audit log:\n%s", log)
		}
		if ok, _, _ := c.Exists(second.Node); !ok {
			t.Fatal("the next holder's node went")
		}
	})

	t.Run("at once", func(t *testing.T) {
		// Each operator on a machine of its own: separate audit logs.
		codes, outs := make([]int, 2), make([]string, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				audit := filepath.Join(dir, fmt.Sprintf("audit-%d.log", i))
				_, outs[i], codes[i] = run(t, "release", "--force", "--yes", second.Node, "--server", zks.Addr(), "--audit-log", audit)
			})
		}
		wg.Wait()
		won, lost := 0, 1
		if codes[0] != exitOK {
			won, lost = 1, 0
		}
		if codes[won] != exitOK || codes[lost] != exitFailed {
			t.Fatalf("exits %v:\n%s\n%s", codes, outs[0], outs[1])
		}
		why := outs[lost]
		if !strings.Contains(why, "force-release refused, nothing was changed") ||
			!(strings.Contains(why, "is still connected") || strings.Contains(why, "does not exist") ||
				strings.Contains(why, "is still alive cannot be told")) {
			t.Fatalf("the second operator: %s", why)
		}
		t.Logf("the second operator: %s", why)
		noPrefix(why)
		curator.WaitHeld(t, "third", 30*time.Second)
		if ok, _, _ := c.Exists(third.Node); !ok {
			t.Fatal("the next holder's node went")
		}
	})
}
