package zkserver

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// killWait bounds how long a killed JVM may take to be reaped.
const killWait = 15 * time.Second

// process is one running JVM.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the JVM has exited
	err  error         // cmd.Wait's result, valid once done is closed
}

// launch starts java with args in dir, appending its stdout and stderr (which
// carry the server log) to logPath.
func launch(java string, args []string, dir, logPath string) (*process, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("zkserver: open server log: %w", err)
	}
	defer logf.Close()

	cmd := exec.Command(java, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	p := &process{cmd: cmd, done: make(chan struct{})}
	exited := func(err error) { p.err = err; close(p.done) }
	if err := StartChild(cmd, nil, exited); err != nil {
		return nil, fmt.Errorf("zkserver: start java: %w", err)
	}
	return p, nil
}

// exited reports whether the JVM has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the JVM and everything in its process group, and waits for it.
func (p *process) kill() error {
	if p.exited() {
		return nil
	}
	killGroup(p.cmd.Process)
	select {
	case <-p.done:
		return nil
	case <-time.After(killWait):
		return errors.New("zkserver: java did not exit 15s after SIGKILL")
	}
}

// logTail returns the last n lines of the file at path, for error messages.
func logTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(no server log: %v)", err)
	}
	lines := strings.Split(string(bytes.TrimRight(b, "\n")), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "--- " + path + " (last lines) ---\n" + strings.Join(lines, "\n")
}
