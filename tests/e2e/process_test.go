package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// The exit codes zklocks documents in every command's help.
const (
	exitOK          = 0
	exitUnreachable = 2
)

// run runs the zklocks binary with args and no input, to its end, and
// returns its stdout, stderr and exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), zklocksbin.Path(t), args...)
	cmd.Stdin = strings.NewReader("")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("zklocks %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// process is a zklocks command running in the background, such as the
// exporter, its stdout and stderr in log.
type process struct {
	t      testing.TB
	cmd    *exec.Cmd
	log    *zktest.SyncBuffer
	exited chan struct{}
	done   bool
}

// startProcess starts zklocks with args. The test's cleanup stops it as
// stop does, unless the test did.
func startProcess(t testing.TB, args ...string) *process {
	t.Helper()
	p := &process{t: t, cmd: exec.Command(zklocksbin.Path(t), args...), log: &zktest.SyncBuffer{}, exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(p.stop)
	return p
}

// stop sends SIGTERM and waits for the process to exit, and fails the
// test unless it exits 0 within 20 s. A process that hangs is sent
// SIGQUIT first, so that its goroutines in the log say where.
func (p *process) stop() {
	p.t.Helper()
	if p.done {
		return
	}
	p.done = true
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		p.t.Errorf("zklocks %s did not stop on SIGTERM; its output:\n%s", p.cmd.Args[1], p.log)
		return
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		p.t.Errorf("zklocks %s ended with %d: %s", p.cmd.Args[1], code, p.log)
	}
}

// startExporterWith runs `zklocks exporter` with args on a free port until
// the test ends (or stop), waits until its /healthz says synced, and
// returns it and its address.
func startExporterWith(t *testing.T, synced string, args ...string) (*process, string) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", zktest.FreePort(t))
	p := startProcess(t, append([]string{"exporter", "--listen", addr}, args...)...)
	zktest.WaitUntil(t, 60*time.Second, func() string {
		body, err := httpGet("http://" + addr + "/healthz")
		if err != nil {
			return fmt.Sprintf("exporter does not answer: %v (%s)", err, p.log)
		}
		if !strings.Contains(body, synced) {
			return fmt.Sprintf("exporter has not synced: %s (%s)", body, p.log)
		}
		return ""
	})
	return p, addr
}

func httpGet(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// rel is a node's name, the last element of its path.
func rel(node string) string { return node[strings.LastIndexByte(node, '/')+1:] }
