package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// demoRun is a `zklocks demo --plain` process whose output is kept and
// whose stdin takes controls. Its TMPDIR is private, so that the
// throwaway server's files and JVM can be told from any other's.
type demoRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	tmp    string
	stdin  io.WriteCloser
	mu     sync.Mutex
	out    strings.Builder
	exited chan struct{}
}

func startDemoRun(t *testing.T, args ...string) *demoRun {
	t.Helper()
	r := &demoRun{t: t, tmp: t.TempDir(), exited: make(chan struct{})}
	r.cmd = exec.Command(zklocksbin.Path(t), append([]string{"demo", "--plain", "--config", "", "--log-file", ""}, args...)...)
	r.cmd.Env = append(os.Environ(), "TMPDIR="+r.tmp)
	stdin, err := r.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.stdin = stdin
	pr, pw := io.Pipe()
	r.cmd.Stdout, r.cmd.Stderr = pw, pw
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			r.mu.Lock()
			r.out.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
		}
	}()
	go func() { _ = r.cmd.Wait(); pw.Close(); close(r.exited) }()
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		<-r.exited
		killJVMs(r.tmp)
	})
	return r
}

func (r *demoRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitOutput polls the output until re matches, for at most d.
func (r *demoRun) waitOutput(d time.Duration, re string) []string {
	r.t.Helper()
	rx := regexp.MustCompile(re)
	var m []string
	zktest.WaitUntil(r.t, d, func() string {
		if m = rx.FindStringSubmatch(r.output()); m != nil {
			return ""
		}
		select {
		case <-r.exited:
			r.t.Fatalf("zklocks demo exited (%v) before printing %q:\n%s", r.cmd.ProcessState, re, r.output())
		default:
		}
		return fmt.Sprintf("zklocks demo printed no %q:\n%s", re, r.output())
	})
	return m
}

func (r *demoRun) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// wait waits for the process to exit and returns its exit code.
func (r *demoRun) wait(d time.Duration) int {
	r.t.Helper()
	select {
	case <-r.exited:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		r.t.Fatalf("zklocks demo did not exit within %v:\n%s", d, r.output())
		return -1
	}
}

// assertNothingLeft checks that no JVM started under tmp runs and that no
// server directory is left in it.
func assertNothingLeft(t *testing.T, tmp string) {
	t.Helper()
	noJVMs(t, tmp, "java processes of the demo still run")
	if left, _ := filepath.Glob(filepath.Join(tmp, "zklocks-zk-*")); len(left) > 0 {
		t.Errorf("the throwaway server's files are left: %v", left)
	}
}

// noJVMs waits up to 10 s for every JVM started under tmp to end, and
// fails the test, saying what, when one does not.
func noJVMs(t *testing.T, tmp, what string) {
	t.Helper()
	zktest.WaitUntil(t, 10*time.Second, func() string {
		if pids := jvmsUnder(tmp); len(pids) > 0 {
			return fmt.Sprintf("%s: %v", what, pids)
		}
		return ""
	})
}

// jvmsUnder returns the live java processes whose command line names a
// path under tmp (the throwaway server's zoo.cfg).
func jvmsUnder(tmp string) []int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, p := range procs {
		b, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !strings.Contains(string(b), "QuorumPeerMain") || !strings.Contains(string(b), tmp+"/") {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(p, "stat")); err == nil && strings.Contains(string(stat), ") Z ") {
			continue // exited; its parent has not reaped it yet
		}
		var pid int
		fmt.Sscan(filepath.Base(p), &pid)
		pids = append(pids, pid)
	}
	return pids
}

func killJVMs(tmp string) {
	for _, pid := range jvmsUnder(tmp) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// throwawayArgs makes the demo start its own server even when something
// (a ZooKeeper, as the demo would find) listens on 127.0.0.1:2181 on this
// machine.
func throwawayArgs() []string {
	c, err := net.DialTimeout("tcp", "127.0.0.1:2181", 500*time.Millisecond)
	if err != nil {
		return nil
	}
	c.Close()
	return []string{"--throwaway"}
}

func TestIntegrationDemoThrowawayQuitsCleanly(t *testing.T) {
	t.Parallel()
	r := startDemoRun(t, throwawayArgs()...)
	r.waitOutput(90*time.Second, `granted .*\n(.*\n)*.*granted .*\n(.*\n)*.*granted `)
	r.send("q")
	if code := r.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after q:\n%s", code, r.output())
	}
	assertNothingLeft(t, r.tmp)
}

func TestIntegrationDemoStopsOnSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			r := startDemoRun(t, append(throwawayArgs(), "--contenders", "2")...)
			r.waitOutput(90*time.Second, `granted `)
			if err := r.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := r.wait(30 * time.Second); code != 0 {
				t.Fatalf("exit code %d after %v:\n%s", code, sig, r.output())
			}
			assertNothingLeft(t, r.tmp)
		})
	}
}

func TestIntegrationDemoKilledTakesItsServer(t *testing.T) {
	t.Parallel()
	r := startDemoRun(t, append(throwawayArgs(), "--contenders", "2")...)
	r.waitOutput(90*time.Second, `granted `)
	if len(jvmsUnder(r.tmp)) != 1 {
		t.Fatalf("want one JVM under %s, have %v", r.tmp, jvmsUnder(r.tmp))
	}
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r.wait(10 * time.Second)
	noJVMs(t, r.tmp, "the throwaway server outlived its killed demo")
}

// TestIntegrationDemoOnServer runs the demo on a given cluster: its
// controls work, a lost reply is fenced with zklocks fence, and what it
// created is gone when it quits.
func TestIntegrationDemoOnServer(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	r := startDemoRun(t, "--server", zks.Addr(), "--contenders", "4")
	r.waitOutput(30*time.Second, `on `+regexp.QuoteMeta(zks.Addr()))
	r.waitOutput(30*time.Second, `granted `)
	if pids := jvmsUnder(r.tmp); len(pids) > 0 {
		t.Errorf("with --server the demo started a server of its own: %v", pids)
	}
	r.send("x")
	r.waitOutput(10*time.Second, `killed contender \d+, `)
	r.send("+")
	r.waitOutput(10*time.Second, `contender 5 joined`)
	r.send("l")
	r.waitOutput(10*time.Second, `lost a create reply .*; fence it with zklocks fence`)
	r.waitOutput(10*time.Second, `orphaned .*#6 `)
	// The orphan reaches the head of the queue and blocks; fence it.
	r.waitOutput(30*time.Second, `orphans: `+regexp.QuoteMeta(demo.LockPath(demo.Exclusive)))
	var fenced bool
	for deadline := time.Now().Add(30 * time.Second); !fenced && time.Now().Before(deadline); {
		out, stderr, code := run(t, "fence", "--server", zks.Addr(), "--config", "", "--audit-log", filepath.Join(t.TempDir(), "audit.log"),
			"--yes", demo.LockPath(demo.Exclusive))
		fenced = code == 0 && strings.Contains(stderr, "fenced 1 node")
		if !fenced {
			t.Logf("fence: %d %s %s", code, out, stderr)
			time.Sleep(500 * time.Millisecond)
		}
	}
	if !fenced {
		t.Fatalf("zklocks fence never fenced the orphan:\n%s", r.output())
	}
	r.waitOutput(10*time.Second, `orphan-gone`)
	r.waitOutput(20*time.Second, `granted .*#6 `)
	r.send("q")
	if code := r.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d:\n%s", code, r.output())
	}
	if ok, _, err := zks.Connect(t).Exists(demo.Root); err != nil || ok {
		t.Fatalf("%s after the demo: exists %v, %v", demo.Root, ok, err)
	}
}
