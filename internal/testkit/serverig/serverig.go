// Package serverig runs zklocks serve as a process on a throwaway
// ZooKeeper, with the keys of the people who connect to it through
// OpenSSH's own client (under tmux, for a terminal) or any other SSH
// client, for the end-to-end tests and benchmarks of zklocks serve.
package serverig

import (
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
)

// Rig is a zklocks serve process and the keys of the people who connect
// to it.
type Rig struct {
	t    testing.TB
	dir  string
	port int
	log  *zktest.SyncBuffer
	cmd  *exec.Cmd
	// exited is closed once the process has exited.
	exited chan struct{}
}

// SSHKey makes an ed25519 key pair named name in dir and returns its
// public line and its fingerprint as ssh-keygen prints it.
func SSHKey(t testing.TB, dir, name string) (pub, fingerprint string) {
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

// Start runs zklocks serve on zks, showing root, with the authorized-keys
// lines given and extra flags, and waits until it listens. The test's
// cleanup stops it with SIGTERM and fails the test when it does not stop.
func Start(t testing.TB, zks *zktest.Server, root string, keys []string, extra ...string) *Rig {
	t.Helper()
	return start(t, keys, func(r *Rig) []string {
		return []string{"--server", zks.Addr(), "--config", "", "--root", root}
	}, extra)
}

// StartContexts runs zklocks serve with a config file whose contexts
// section is contexts (YAML, indented by two spaces, naming its servers;
// ZK in it is replaced by zks's address), with the keys and extra flags
// of Start.
func StartContexts(t testing.TB, zks *zktest.Server, contexts string, keys []string, extra ...string) *Rig {
	t.Helper()
	return start(t, keys, func(r *Rig) []string {
		cfg := r.Path("config.yaml")
		text := "contexts:\n" + strings.ReplaceAll(contexts, "ZK", zks.Addr())
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return []string{"--config", cfg}
	}, extra)
}

func start(t testing.TB, keys []string, where func(*Rig) []string, extra []string) *Rig {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Fatal("OpenSSH's client is not installed (apt-get install -y openssh-client; scripts/deps.sh does)")
	}
	r := &Rig{t: t, dir: t.TempDir(), port: zktest.FreePort(t), log: &zktest.SyncBuffer{}, exited: make(chan struct{})}
	ak := filepath.Join(r.dir, "authorized_keys")
	if err := os.WriteFile(ak, []byte(strings.Join(keys, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"serve"}, where(r)...),
		"--listen", fmt.Sprintf("127.0.0.1:%d", r.port), "--host-key", filepath.Join(r.dir, "host_key"),
		"--authorized-keys", ak, "--audit-log", r.Path("audit.log"), "--log-file", r.Path("zk.log"), "--idle-timeout", "0")
	args = append(args, extra...)
	r.cmd = exec.Command(zklocksbin.Path(t), args...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(20 * time.Second):
			// Its goroutines, in the log, say where it hangs.
			_ = r.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-r.exited:
			case <-time.After(5 * time.Second):
				_ = r.cmd.Process.Kill()
			}
			t.Errorf("zklocks serve did not stop on SIGTERM; its log:\n%s", r.log)
		}
	})
	r.WaitLog("listening on")
	return r
}

// UseKeys copies the key files named (and their .pub and -cert.pub, when
// there) from dir into the rig's own, where Open and Run find them.
func (r *Rig) UseKeys(dir string, names ...string) {
	r.t.Helper()
	for _, n := range names {
		for _, ext := range []string{"", ".pub", "-cert.pub"} {
			b, err := os.ReadFile(filepath.Join(dir, n+ext))
			if errors.Is(err, os.ErrNotExist) && ext != "" {
				continue
			}
			if err != nil {
				r.t.Fatal(err)
			}
			if err := os.WriteFile(r.Path(n+ext), b, 0o600); err != nil {
				r.t.Fatal(err)
			}
		}
	}
}

// Path is the file name in the rig's own directory (its keys, audit.log).
func (r *Rig) Path(name string) string { return filepath.Join(r.dir, name) }

// Port is the port zklocks serve listens on, on 127.0.0.1.
func (r *Rig) Port() int { return r.port }

// Log is what the process has written to its stdout and stderr so far.
func (r *Rig) Log() string { return r.log.String() }

// Signal sends sig to the process.
func (r *Rig) Signal(sig os.Signal) error { return r.cmd.Process.Signal(sig) }

// PID is the process's id.
func (r *Rig) PID() int { return r.cmd.Process.Pid }

// Stop sends SIGTERM and waits up to 20 s for the process to exit,
// reporting whether it did.
func (r *Rig) Stop() bool {
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
		return true
	case <-time.After(20 * time.Second):
		return false
	}
}

// WaitLog waits up to 30 s for the server's log to say text.
func (r *Rig) WaitLog(text string) {
	r.t.Helper()
	zktest.WaitUntil(r.t, 30*time.Second, func() string {
		if strings.Contains(r.log.String(), text) {
			return ""
		}
		return fmt.Sprintf("the log never said %q:\n%s", text, r.log)
	})
}

// SSHArgs are OpenSSH's arguments to connect as user with the key named
// key (made by SSHKey in Path("")).
func (r *Rig) SSHArgs(user, key string) []string {
	return []string{"-p", strconv.Itoa(r.port), "-i", r.Path(key), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=accept-new", "-o", "UserKnownHostsFile=" + r.Path("known_hosts"),
		"-o", "LogLevel=ERROR", user + "@127.0.0.1"}
}

// Open connects user with key through OpenSSH under tmux, in a w×h
// terminal, and waits for the UI.
func (r *Rig) Open(user, key string, w, h int) *tmuxscreen.Screen {
	r.t.Helper()
	cmd := "TERM=xterm-256color exec ssh -t " + strings.Join(r.SSHArgs(user, key), " ")
	s := tmuxscreen.Start(r.t, w, h, cmd)
	s.WaitText("Locks", "connected")
	return s
}

// Run runs ssh as user with key, without a terminal, and returns its exit
// code and output.
func (r *Rig) Run(user, key string, args ...string) (int, string) {
	r.t.Helper()
	out, err := exec.Command("ssh", append(r.SSHArgs(user, key), args...)...).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	case err != nil:
		r.t.Fatal(err)
	}
	return 0, string(out)
}

// Audit returns the audit log's lines, each a JSON object.
func (r *Rig) Audit() []map[string]any {
	b, err := os.ReadFile(r.Path("audit.log"))
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
