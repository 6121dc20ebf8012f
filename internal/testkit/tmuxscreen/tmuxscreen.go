// Package tmuxscreen drives a command in a terminal of a fixed size, as a
// person at it would: each Screen is a tmux session on a private tmux
// server, its keys sent and its screen read with tmux itself. The
// end-to-end tests and the benchmarks that run zklocks' terminal UI use it.
package tmuxscreen

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// Screen is a command running in a tmux session of its own, on a private
// tmux server that the test's cleanup kills. The pane stays when the
// command exits, to see how it left the terminal.
type Screen struct {
	t      testing.TB
	socket string
	last   string
}

var servers atomic.Int64

// Start runs command (a shell command line) in a w×h terminal. It fails
// the test when tmux is not installed.
func Start(t testing.TB, w, h int, command string) *Screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install -y tmux; scripts/deps.sh does)")
	}
	s := &Screen{t: t, socket: fmt.Sprintf("zklocks-test-%d-%d", os.Getpid(), servers.Add(1))}
	s.Tmux("new-session", "-d", "-s", "zklocks", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), command)
	s.Tmux("set-option", "-t", "zklocks", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

// Tmux runs a tmux command on the Screen's server and returns its output;
// the session is named "zklocks". A failure fails the test, with the last
// screen captured.
func (s *Screen) Tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s\nlast screen:\n%s", strings.Join(args, " "), err, out, s.last)
	}
	return string(out)
}

// Keys types keys, in tmux send-keys' words ("Enter", "C-c", "q").
func (s *Screen) Keys(keys ...string) {
	s.t.Helper()
	s.Tmux(append([]string{"send-keys", "-t", "zklocks"}, keys...)...)
}

// Capture is the screen now.
func (s *Screen) Capture() string {
	s.t.Helper()
	s.last = s.Tmux("capture-pane", "-p", "-t", "zklocks")
	return s.last
}

// Last is the screen as last captured (by Capture or a wait).
func (s *Screen) Last() string { return s.last }

// WaitFor polls the screen until cond holds, for at most 20 s, and returns
// that screen; what names cond in the failure.
func (s *Screen) WaitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	zktest.WaitUntil(s.t, 20*time.Second, func() string {
		if cond(s.Capture()) {
			return ""
		}
		return "never saw " + what + "; the screen:\n" + s.last
	})
	return s.last
}

// WaitText polls the screen until it shows every one of texts, for at most
// 20 s.
func (s *Screen) WaitText(texts ...string) string {
	s.t.Helper()
	return s.WaitFor(strings.Join(texts, " and "), func(screen string) bool {
		for _, x := range texts {
			if !strings.Contains(screen, x) {
				return false
			}
		}
		return true
	})
}

// WaitScreen polls the screen until re matches, for at most d.
func (s *Screen) WaitScreen(d time.Duration, re string) string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	zktest.WaitUntil(s.t, d, func() string {
		if rx.MatchString(s.Capture()) {
			return ""
		}
		return fmt.Sprintf("never saw %q; the screen:\n%s", re, s.last)
	})
	return s.last
}

// PaneDead reports whether the command in the pane has exited.
func (s *Screen) PaneDead() bool {
	return strings.TrimSpace(s.Tmux("display-message", "-p", "-t", "zklocks", "#{pane_dead}")) == "1"
}

// WaitExit waits up to d for the command in the pane to exit.
func (s *Screen) WaitExit(d time.Duration) {
	s.t.Helper()
	zktest.WaitUntil(s.t, d, func() string {
		if s.PaneDead() {
			return ""
		}
		return "the command did not exit; the screen:\n" + s.Capture()
	})
}

// PID is the process the pane runs (the command itself).
func (s *Screen) PID() int {
	s.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(s.Tmux("display-message", "-p", "-t", "zklocks", "#{pane_pid}")))
	if err != nil {
		s.t.Fatalf("the pane's pid: %v", err)
	}
	return pid
}
