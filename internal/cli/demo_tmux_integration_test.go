package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/demo"
)

// demoTmux runs command in a tmux session of its own, on a private tmux
// server, at 120×40.
type demoTmux struct {
	t      *testing.T
	socket string
	screen string
}

func startDemoTmux(t *testing.T, command string) *demoTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install -y tmux; scripts/deps.sh does)")
	}
	m := &demoTmux{t: t, socket: fmt.Sprintf("zklocks-demo-test-%d", os.Getpid())}
	m.tmux("new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", command)
	m.tmux("set-option", "-t", "demo", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	return m
}

func (m *demoTmux) tmux(args ...string) string {
	m.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", m.socket}, args...)...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %s: %v\n%s\nlast screen:\n%s", strings.Join(args, " "), err, out, m.screen)
	}
	return string(out)
}

// waitScreen polls the pane until re matches, for at most d.
func (m *demoTmux) waitScreen(d time.Duration, re string) string {
	m.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(d)
	for {
		m.screen = m.tmux("capture-pane", "-p", "-t", "demo")
		if rx.MatchString(m.screen) {
			return m.screen
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("never saw %q in %v; the screen:\n%s", re, d, m.screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// paneDead reports whether the command in the pane has exited.
func (m *demoTmux) paneDead() bool {
	return strings.TrimSpace(m.tmux("display-message", "-p", "-t", "demo", "#{pane_dead}")) == "1"
}

// TestIntegrationDemoTmux runs `zklocks demo` as the README's first
// command does, in a terminal, on a machine with no ZooKeeper of its own:
// the UI opens on the demo's lock, grants show within seconds, the counter
// reads about one wakeup per release for the fair lock and about N-1 for
// the naive one, and quitting leaves no server behind.
func TestIntegrationDemoTmux(t *testing.T) {
	for _, tc := range []struct {
		name, flags, lock string
		detail            string // on the lock's screen
		grants            int    // in the events pane
		lo, hi            float64
	}{
		{"fair", "", demo.LockPath(demo.Exclusive), `1 holding · \d waiting`, 5, 0.8, 1.2},
		// The naive lock's holders all have the same node path, which the
		// event log does not tell apart (model.State.record keys
		// participants by path), so its grants are not asserted there; the
		// counter is the contenders' own.
		{"naive", "--naive", demo.LockPath(demo.Naive), `! herd`, 0, 3.5, 6.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin, tmp := zklocksBinary(t), t.TempDir()
			t.Cleanup(func() { killJVMs(tmp) })
			command := fmt.Sprintf("TMPDIR=%s TERM=xterm-256color %s demo %s --config '' --log-file %s %s; echo zklocks exited $?",
				tmp, bin, tc.flags, filepath.Join(tmp, "zk.log"), strings.Join(throwawayArgs(), " "))
			m := startDemoTmux(t, command)
			m.waitScreen(90*time.Second, regexp.QuoteMeta(tc.lock)+`(?s).*`+tc.detail+`.*DEMO \d+\.\d\d wakeups/release`)
			if n := len(jvmsUnder(tmp)); n != 1 {
				t.Errorf("%d throwaway servers run, want 1", n)
			}
			m.tmux("send-keys", "-t", "demo", "3")
			m.waitScreen(30*time.Second, `(?s)Events.*`+strings.Repeat(`granted.*`, tc.grants))
			// Enough releases for the counter to settle.
			time.Sleep(5 * time.Second)
			sc := m.waitScreen(time.Second, `DEMO \d+\.\d\d wakeups/release`)
			var perRelease float64
			fmt.Sscanf(regexp.MustCompile(`DEMO (\d+\.\d\d)`).FindStringSubmatch(sc)[1], "%g", &perRelease)
			if perRelease < tc.lo || perRelease > tc.hi {
				t.Errorf("%.2f wakeups per release on screen, want %.1f–%.1f:\n%s", perRelease, tc.lo, tc.hi, sc)
			}
			m.tmux("send-keys", "-t", "demo", "+")
			m.waitScreen(10*time.Second, `contender 7 joined`)
			m.tmux("send-keys", "-t", "demo", "q")
			deadline := time.Now().Add(30 * time.Second)
			for !m.paneDead() {
				if time.Now().After(deadline) {
					t.Fatalf("zklocks demo did not quit on q; the screen:\n%s", m.tmux("capture-pane", "-p", "-t", "demo"))
				}
				time.Sleep(100 * time.Millisecond)
			}
			m.waitScreen(time.Second, `zklocks exited 0`)
			assertNothingLeft(t, tmp)
		})
	}
}

// TestIntegrationDemoTmuxKilled closes the terminal under a running demo
// (tmux kill-server hangs up on it): the demo still removes what it made
// and stops its server.
func TestIntegrationDemoTmuxKilled(t *testing.T) {
	bin, tmp := zklocksBinary(t), t.TempDir()
	t.Cleanup(func() { killJVMs(tmp) })
	command := fmt.Sprintf("TMPDIR=%s TERM=xterm-256color %s demo --config '' --log-file %s %s",
		tmp, bin, filepath.Join(tmp, "zk.log"), strings.Join(throwawayArgs(), " "))
	m := startDemoTmux(t, command)
	m.waitScreen(90*time.Second, `DEMO \d+\.\d\d wakeups/release`)
	if n := len(jvmsUnder(tmp)); n != 1 {
		t.Fatalf("%d throwaway servers run, want 1", n)
	}
	m.tmux("kill-server")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		left, _ := filepath.Glob(filepath.Join(tmp, "zklocks-zk-*"))
		if len(left) == 0 && len(jvmsUnder(tmp)) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	assertNothingLeft(t, tmp)
}

// TestIntegrationDemoTmuxFence loses a reply in the UI (L): the orphan
// heads the queue and blocks its own session, the UI shows the self-wait,
// and its fence (F, y) frees the lock.
func TestIntegrationDemoTmuxFence(t *testing.T) {
	bin, tmp := zklocksBinary(t), t.TempDir()
	t.Cleanup(func() { killJVMs(tmp) })
	command := fmt.Sprintf("TMPDIR=%s TERM=xterm-256color %s demo --contenders 3 --config '' --log-file %s --audit-log %s %s",
		tmp, bin, filepath.Join(tmp, "zk.log"), filepath.Join(tmp, "audit.log"), strings.Join(throwawayArgs(), " "))
	m := startDemoTmux(t, command)
	m.waitScreen(90*time.Second, `1 holding(?s).*DEMO \d+\.\d\d wakeups/release`)
	m.tmux("send-keys", "-t", "demo", "L")
	m.waitScreen(30*time.Second, `(?s)! self-wait.*1 orphan`)
	m.tmux("send-keys", "-t", "demo", "F")
	m.waitScreen(10*time.Second, `\[x\] 1 #\d+ .*self-wait`)
	m.tmux("send-keys", "-t", "demo", "y")
	m.waitScreen(10*time.Second, `fenced /zklocks-demo/exclusive/`)
	sc := m.waitScreen(10*time.Second, `DEMO \d+\.\d\d wakeups/release · FIFO kept\s*\n`)
	if strings.Contains(sc, "! self-wait") {
		t.Errorf("the self-wait is still shown after the fence:\n%s", sc)
	}
	audit, err := os.ReadFile(filepath.Join(tmp, "audit.log"))
	if err != nil || !strings.Contains(string(audit), `"action":"fence"`) {
		t.Errorf("audit log %q, %v; want the fence", audit, err)
	}
	m.tmux("send-keys", "-t", "demo", "q")
	for deadline := time.Now().Add(30 * time.Second); !m.paneDead(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("zklocks demo did not quit on q")
		}
	}
	assertNothingLeft(t, tmp)
}
