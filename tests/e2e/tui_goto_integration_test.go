package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationTUIOpenAtPathAndCommandBar: `zklocks PATH` starts on the
// lock's detail; y copies the selection to tmux's clipboard (OSC 52); a
// lock marked with m rings the bell when it changes hands; and the : bar
// jumps to another lock by its path, to the tree, to a screen by its
// name, and to another context.
func TestIntegrationTUIOpenAtPathAndCommandBar(t *testing.T) {
	bin := zklocksbin.Path(t)
	zks := zktest.Start(t)
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	kazoo.Acquire(t, "a-holder", "lock", "/goto/alpha")
	kazoo.WaitHeld(t, "a-holder", 30*time.Second)
	kazoo.Acquire(t, "b-holder", "lock", "/goto/beta")
	kazoo.WaitHeld(t, "b-holder", 30*time.Second)
	kazoo.Acquire(t, "b-waiter", "lock", "/goto/beta")
	kazoo.Acquire(t, "g-holder", "lock", "/other/gamma")

	dir := t.TempDir()
	config := filepath.Join(dir, "config.yaml")
	yaml := fmt.Sprintf("contexts:\n  one: {server: %q, roots: [/goto], read-only: true}\n  two: {server: %q, roots: [/other], read-only: true}\n",
		zks.Addr(), zks.Addr())
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("TERM=xterm-256color %s --config %s --context one --log-file %s --bell /goto/beta",
		bin, config, filepath.Join(dir, "zk.log"))
	s := tmuxscreen.Start(t, 120, 40, command)
	s.Tmux("set-option", "-s", "set-clipboard", "on")
	s.WaitText("/goto/beta  kazoo-lock", "1 holding", "1 waiting", "⎈ one", "READ-ONLY")

	// y: the holder's node path, on tmux's clipboard.
	s.Keys("y")
	s.WaitText("asked the terminal to copy the path /goto/beta/")
	zktest.WaitUntil(t, 10*time.Second, func() string {
		if buf := s.Tmux("show-buffer"); !strings.HasPrefix(buf, "/goto/beta/") {
			return "tmux's clipboard holds " + buf
		}
		return ""
	})

	// m, then the holder lets go: the waiter's grant is told, with a bell.
	s.Keys("m")
	s.WaitText("/goto/beta ◆")
	kazoo.Release(t, "b-holder")
	s.WaitText("◆ /goto/beta: granted")
	if flag := strings.TrimSpace(s.Tmux("display-message", "-p", "-t", "zklocks", "#{window_bell_flag}")); flag != "1" {
		t.Fatalf("no bell: window_bell_flag %q", flag)
	}

	s.Keys(":")
	s.WaitText(":█")
	s.Keys("/goto/al", "Tab")
	s.WaitText(":/goto/alpha█")
	s.Keys("Enter")
	s.WaitFor("the detail of /goto/alpha", func(sc string) bool {
		return strings.Contains(sc, "/goto/alpha  kazoo-lock") && strings.Contains(sc, "0 waiting")
	})

	// A path that is no lock opens the tree there, read from the server.
	s.Keys(":", "/goto", "Enter")
	s.WaitText("tree · /goto", "2 children", "alpha", "beta", "kazoo-lock · 1 holding · 0 waiting")
	// (Escape and : sent at once would read as alt+:.)
	s.Keys("Escape")
	s.WaitFor("the tree closed", func(sc string) bool { return !strings.Contains(sc, "tree · /goto") })

	s.Keys(":", "sessions", "Enter")
	s.WaitText("[2 Sessions]", "SESSION", "HOLDS")
	// :ctx two connects again, to the other context's roots.
	s.Keys(":", "ctx two", "Enter")
	s.WaitText("⎈ two", "/other/gamma", "kazoo-lock")
	if strings.Contains(s.Last(), "/goto/alpha") {
		t.Fatalf("the first context's locks are still shown:\n%s", s.Last())
	}
	// p: problems only; none here.
	s.Keys("p")
	s.WaitText("no lock has an anomaly (p shows every lock)")
	s.Keys("p")
	s.WaitText("/other/gamma", "kazoo-lock")
	// T: the tree at the lock selected; i a child's node; h the parent.
	s.Keys("T")
	s.WaitText("tree · /other/gamma", "1 child ")
	s.Keys("i")
	s.WaitText("numChildren", "ephemeralOwner")
	// (Escape and h sent at once would read as alt+h.)
	s.Keys("Escape")
	s.WaitText("tree · /other/gamma", "NAME")
	s.Keys("h")
	s.WaitText("tree · /other", "gamma", "kazoo-lock · 1 holding · 0 waiting")
	s.Keys("Escape")
	s.WaitFor("the tree closed", func(sc string) bool { return !strings.Contains(sc, "tree · /other") })
	s.Keys(":", "q", "Enter")
	s.WaitExit(10 * time.Second)
}
