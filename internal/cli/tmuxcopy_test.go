package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxCopyBlocked asks a real tmux server, as zklocks does when
// started inside one: with set-clipboard at tmux's default (external) the
// copy would be dropped, and the fix is named; with it on, nothing is said.
func TestTmuxCopyBlocked(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tmux := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "copy")
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	t.Setenv("TMUX", sock+",1,0")
	tmux("set", "-g", "set-clipboard", "external")
	if got := tmuxCopyBlocked(); !strings.Contains(got, "set-clipboard is external") || !strings.Contains(got, "set -g set-clipboard on") {
		t.Fatalf("external: %q", got)
	}
	tmux("set", "-g", "set-clipboard", "on")
	if got := tmuxCopyBlocked(); got != "" {
		t.Fatalf("on: %q", got)
	}
	t.Setenv("TMUX", "")
	if got := tmuxCopyBlocked(); got != "" {
		t.Fatalf("outside tmux: %q", got)
	}
}
