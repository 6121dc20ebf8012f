package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/internal/zkserver"
)

// serveRig is a zklocks serve process and the keys of the people who
// connect to it with OpenSSH's client.
type serveRig struct {
	t    testing.TB
	dir  string
	port int
	log  *syncBuffer
	cmd  *exec.Cmd
}

// sshKey makes an ed25519 key pair named name in dir and returns its
// public line and its fingerprint as ssh-keygen prints it.
func sshKey(t testing.TB, dir, name string) (pub, fingerprint string) {
	t.Helper()
	key := filepath.Join(dir, name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name+"@test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	b, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ssh-keygen", "-l", "-E", "sha256", "-f", key+".pub").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b)), strings.Fields(string(out))[1]
}

// startServe runs zklocks serve on zks with the authorized-keys lines
// given, and waits until it listens.
func startServe(t testing.TB, zks *zktest.Server, root string, keys []string, extra ...string) *serveRig {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Fatal("OpenSSH's client is not installed (apt-get install -y openssh-client; scripts/deps.sh does)")
	}
	r := &serveRig{t: t, dir: t.TempDir(), port: zktest.FreePort(t), log: &syncBuffer{}}
	ak := filepath.Join(r.dir, "authorized_keys")
	if err := os.WriteFile(ak, []byte(strings.Join(keys, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"serve", "--server", zks.Addr(), "--config", "", "--root", root,
		"--listen", fmt.Sprintf("127.0.0.1:%d", r.port), "--host-key", filepath.Join(r.dir, "host_key"),
		"--authorized-keys", ak, "--audit-log", r.path("audit.log"), "--log-file", r.path("zk.log"), "--idle-timeout", "0"}, extra...)
	r.cmd = exec.Command(zklocksbin.Path(t), args...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = r.cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			// Its goroutines, in the log, say where it hangs.
			_ = r.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				_ = r.cmd.Process.Kill()
			}
			t.Errorf("zklocks serve did not stop on SIGTERM; its log:\n%s", r.log)
		}
	})
	r.waitLog("listening on")
	return r
}

func (r *serveRig) path(name string) string { return filepath.Join(r.dir, name) }

// waitLog waits for the server's log to say text.
func (r *serveRig) waitLog(text string) {
	r.t.Helper()
	zktest.WaitUntil(r.t, 30*time.Second, func() string {
		if strings.Contains(r.log.String(), text) {
			return ""
		}
		return fmt.Sprintf("the log never said %q:\n%s", text, r.log)
	})
}

// sshArgs are OpenSSH's arguments to connect as user with key name.
func (r *serveRig) sshArgs(user, key string) []string {
	return []string{"-p", strconv.Itoa(r.port), "-i", r.path(key), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=accept-new", "-o", "UserKnownHostsFile=" + r.path("known_hosts"),
		"-o", "LogLevel=ERROR", user + "@127.0.0.1"}
}

// open connects user with key under tmux, at w×h, and waits for the UI.
func (r *serveRig) open(user, key string, w, h int) *tmuxscreen.Screen {
	r.t.Helper()
	cmd := "TERM=xterm-256color exec ssh -t " + strings.Join(r.sshArgs(user, key), " ")
	s := tmuxscreen.Start(r.t, w, h, cmd)
	s.WaitText("Locks", "connected")
	return s
}

// run runs ssh without a terminal and returns its exit code and output.
func (r *serveRig) run(user, key string, args ...string) (int, string) {
	r.t.Helper()
	out, err := exec.Command("ssh", append(r.sshArgs(user, key), args...)...).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	case err != nil:
		r.t.Fatal(err)
	}
	return 0, string(out)
}

// audit returns the audit log's lines.
func (r *serveRig) audit() []map[string]any {
	b, err := os.ReadFile(r.path("audit.log"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		r.t.Fatal(err)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			r.t.Fatalf("audit line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// selectedLine is the screen's line with the ">" marker.
func selectedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, ">") {
			return l
		}
	}
	return ""
}

// mntrValue is one of mntr's figures from the server at addr.
func mntrValue(t testing.TB, addr, key string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reply, err := zkserver.FourLetter(ctx, addr, "mntr")
	if err != nil {
		t.Fatalf("mntr: %v", err)
	}
	for _, l := range strings.Split(reply, "\n") {
		if v, ok := strings.CutPrefix(l, key+"\t"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("mntr %s: %q", key, v)
			}
			return n
		}
	}
	t.Fatalf("mntr says no %s:\n%s", key, reply)
	return 0
}
