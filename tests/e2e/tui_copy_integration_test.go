package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationTUICopyUnderTmux copies a lock's path (y) from the UI
// started inside tmux, which zklocks asks for its set-clipboard option:
// at tmux's default (external) tmux drops the copy, and the status line
// says so and names the fix; with it on, or outside tmux, the copy is
// only told.
func TestIntegrationTUICopyUnderTmux(t *testing.T) {
	t.Parallel()
	bin := zklocksbin.Path(t)
	zks := zktest.Start(t)
	holder := zk.NewLock(zks.Connect(t), "/copy/orders", zk.WorldACL(zk.PermAll))
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const blocked = "but tmux drops it (set-clipboard is external): run tmux set -g set-clipboard on"
	for _, c := range []struct {
		name, before string
		blocked      bool
	}{
		{"external", "tmux set-option -g set-clipboard external &&", true},
		{"on", "tmux set-option -g set-clipboard on &&", false},
		{"outside tmux", "env -u TMUX", false},
	} {
		// The option is set from inside the session, before zklocks
		// starts and asks for it.
		command := fmt.Sprintf("%s TERM=xterm-256color %s --server %s --config '' --log-file %s --root /copy",
			c.before, bin, zks.Addr(), filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".log"))
		s := tmuxscreen.Start(t, 200, 30, command)
		s.WaitText("/copy/orders", "gozk-lock")
		s.Keys("y")
		sc := s.WaitText("asked the terminal to copy the path /copy/orders")
		if got := strings.Contains(sc, blocked); got != c.blocked {
			t.Errorf("%s: the status line says the copy is dropped: %v, want %v:\n%s", c.name, got, c.blocked, sc)
		}
		if !c.blocked && !strings.Contains(sc, "/copy/orders (OSC 52)") {
			t.Errorf("%s: the copy is not told as asked for:\n%s", c.name, sc)
		}
		s.Keys("q")
	}
}
