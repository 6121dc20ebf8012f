package peers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// stopTimeout is how long a child gets to end its sessions after quit
// before it is killed.
const stopTimeout = 10 * time.Second

// child is a peer program running as a process.
type child struct {
	name  string
	cmd   *exec.Cmd
	mu    sync.Mutex // serialises writes to stdin
	stdin io.WriteCloser
	done  chan struct{} // closed once the process has exited
}

// startChild runs path with args, its environment ours and env. Each line it prints goes to handle, each
// line of its stderr to logf, and its exit status to end.
func startChild(path string, args, env []string, handle func(string), logf func(string, ...any), end func(error)) (*child, error) {
	cmd := exec.Command(path, args...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = &lineWriter{logf: logf}
	c := &child{name: path, cmd: cmd, stdin: stdin, done: make(chan struct{})}
	// EOF on the child's stdin also ends it: the peer programs exit on it.
	read := func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			handle(lines.Text())
		}
	}
	exited := func(err error) {
		end(fmt.Errorf("%s exited: %v", path, err))
		close(c.done)
	}
	if err := zkserver.StartChild(cmd, read, exited); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *child) send(line string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := io.WriteString(c.stdin, line+"\n")
	return err
}

// stop sends quit and closes stdin, then kills the process if it has not
// exited within stopTimeout.
func (c *child) stop() error {
	_ = c.send("quit")
	c.mu.Lock()
	c.stdin.Close()
	c.mu.Unlock()
	select {
	case <-c.done:
		return nil
	case <-time.After(stopTimeout):
	}
	zkserver.KillGroup(c.cmd.Process)
	select {
	case <-c.done:
		return fmt.Errorf("%s ignored quit for %v and was killed", c.name, stopTimeout)
	case <-time.After(stopTimeout):
		return errors.New(c.name + " did not exit after SIGKILL")
	}
}

// kill SIGKILLs the process, as a crash would, and waits until it has
// exited: its clients close no session, and the server drops their
// connections, so each session lives on until its timeout.
func (c *child) kill() error {
	zkserver.KillGroup(c.cmd.Process)
	select {
	case <-c.done:
		return nil
	case <-time.After(stopTimeout):
		return errors.New(c.name + " did not exit after SIGKILL")
	}
}

// lineWriter calls logf once per complete line written to it.
type lineWriter struct {
	logf func(string, ...any)
	buf  []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.logf("%s", w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

// signal sends sig to the process's group: a peer's helpers stop and go
// on with it.
func (c *child) signal(sig syscall.Signal) error {
	return syscall.Kill(-c.cmd.Process.Pid, sig)
}
