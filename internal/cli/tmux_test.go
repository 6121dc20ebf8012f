package cli

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// tmuxScreen drives a command in a tmux session of its own, on a private
// tmux server, as a person at a terminal of a fixed size would. The pane
// stays when the command exits, to see how it left the terminal.
type tmuxScreen struct {
	t      testing.TB
	socket string
	last   string
}

var tmuxServers atomic.Int64

func startTmux(t testing.TB, w, h int, command string) *tmuxScreen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install -y tmux; scripts/deps.sh does)")
	}
	s := &tmuxScreen{t: t, socket: fmt.Sprintf("zklocks-test-%d-%d", os.Getpid(), tmuxServers.Add(1))}
	s.tmux("new-session", "-d", "-s", "zklocks", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), command)
	s.tmux("set-option", "-t", "zklocks", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxScreen) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s\nlast screen:\n%s", strings.Join(args, " "), err, out, s.last)
	}
	return string(out)
}

func (s *tmuxScreen) keys(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", "zklocks"}, keys...)...)
}

// capture is the screen now.
func (s *tmuxScreen) capture() string {
	s.t.Helper()
	s.last = s.tmux("capture-pane", "-p", "-t", "zklocks")
	return s.last
}

// waitFor polls the screen until cond holds, for at most 20 s.
func (s *tmuxScreen) waitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	zktest.WaitUntil(s.t, 20*time.Second, func() string {
		if cond(s.capture()) {
			return ""
		}
		return "never saw " + what + "; the screen:\n" + s.last
	})
	return s.last
}

func (s *tmuxScreen) waitText(texts ...string) string {
	s.t.Helper()
	return s.waitFor(strings.Join(texts, " and "), func(screen string) bool {
		for _, x := range texts {
			if !strings.Contains(screen, x) {
				return false
			}
		}
		return true
	})
}

// waitScreen polls the screen until re matches, for at most d.
func (s *tmuxScreen) waitScreen(d time.Duration, re string) string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	zktest.WaitUntil(s.t, d, func() string {
		if rx.MatchString(s.capture()) {
			return ""
		}
		return fmt.Sprintf("never saw %q; the screen:\n%s", re, s.last)
	})
	return s.last
}

// paneDead reports whether the command in the pane has exited.
func (s *tmuxScreen) paneDead() bool {
	return strings.TrimSpace(s.tmux("display-message", "-p", "-t", "zklocks", "#{pane_dead}")) == "1"
}

// waitExit waits up to d for the command in the pane to exit.
func (s *tmuxScreen) waitExit(d time.Duration) {
	s.t.Helper()
	zktest.WaitUntil(s.t, d, func() string {
		if s.paneDead() {
			return ""
		}
		return "the command did not exit; the screen:\n" + s.capture()
	})
}
