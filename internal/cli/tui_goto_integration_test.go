package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationTUIOpenAtPathAndCommandBar: `zklocks PATH` starts on the
// lock's detail, and the : bar jumps to another lock by its path and to a
// screen by its name.
func TestIntegrationTUIOpenAtPathAndCommandBar(t *testing.T) {
	bin := zklocksBinary(t)
	zks := zktest.Start(t)
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	kazoo.Acquire(t, "a-holder", "lock", "/goto/alpha")
	kazoo.WaitHeld(t, "a-holder", 30*time.Second)
	kazoo.Acquire(t, "b-holder", "lock", "/goto/beta")
	kazoo.WaitHeld(t, "b-holder", 30*time.Second)
	kazoo.Acquire(t, "b-waiter", "lock", "/goto/beta")

	dir := t.TempDir()
	command := fmt.Sprintf("TERM=xterm-256color %s --server %s --config '' --log-file %s --root /goto /goto/beta",
		bin, zks.Addr(), filepath.Join(dir, "zk.log"))
	s := startTmux(t, 120, 40, command)
	s.waitText("/goto/beta  kazoo-lock", "1 holding", "1 waiting")

	s.keys(":")
	s.waitText(":█")
	s.keys("/goto/al", "Tab")
	s.waitText(":/goto/alpha█")
	s.keys("Enter")
	s.waitFor("the detail of /goto/alpha", func(sc string) bool {
		return strings.Contains(sc, "/goto/alpha  kazoo-lock") && strings.Contains(sc, "0 waiting")
	})

	// A path that is no lock opens the tree there, read from the server.
	s.keys(":", "/goto", "Enter")
	s.waitText("tree · /goto", "2 children", "alpha", "beta", "kazoo-lock · 1 holding · 1 waiting")
	s.keys("Escape")

	s.keys(":", "sessions", "Enter")
	s.waitText("[2 Sessions]", "SESSION", "HOLDS")
	s.keys(":", "q", "Enter")
	s.waitExit(10 * time.Second)
}
