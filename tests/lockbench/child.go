package lockbench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// exitTimeout is how long a loop program gets to exit after its stdin
// closes before it is killed.
const exitTimeout = 10 * time.Second

// child is a loop program (see the package comment for its protocol).
type child struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string   // stdout, line by line; closed at EOF
	exited chan struct{} // closed once the process has been waited for
	once   sync.Once
}

// startChild runs path with args; its stderr goes to logf.
func startChild(name, path string, args []string, logf func(string, ...any)) (*child, error) {
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = &lineWriter{logf: func(f string, a ...any) { logf(name+": "+f, a...) }}
	c := &child{name: name, cmd: cmd, stdin: stdin, lines: make(chan string, 1024), exited: make(chan struct{})}
	read := func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}
	if err := zkserver.StartChild(cmd, read, func(error) { close(c.exited) }); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	return c, nil
}

// start waits for "ready".
func (c *child) start(ctx context.Context) error {
	line, err := c.nextWhileWorking(ctx)
	if err != nil {
		return err
	}
	if line != "ready" {
		return fmt.Errorf("%s: %s", c.name, line)
	}
	return nil
}

func (c *child) begin() error { return c.send("go") }

// progress asks for each contender's acquisitions so far and reads the
// answer, "count N0 N1 …".
func (c *child) progress(ctx context.Context) ([]int64, error) {
	if err := c.send("count"); err != nil {
		return nil, err
	}
	line, err := c.nextWhileWorking(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseCount(line)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	return n, nil
}

// parseCount reads "count N0 N1 …", one figure per contender.
func parseCount(line string) ([]int64, error) {
	w := strings.Fields(line)
	if len(w) < 2 || w[0] != "count" {
		return nil, fmt.Errorf("bad count line %q", line)
	}
	n := make([]int64, len(w)-1)
	for i, f := range w[1:] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad count line %q: %w", line, err)
		}
		n[i] = v
	}
	return n, nil
}

func (c *child) observe() observed { return observed{} }

// tally counts releases only: what the child's connections received is
// not known here.
func (c *child) tally(holds []Hold) Tally { return Tally{Releases: len(holds)} }

// finish sends stop and reads every hold, and the disconnects, until
// "done".
func (c *child) finish(ctx context.Context) ([]Hold, int64, error) {
	if err := c.send("stop"); err != nil {
		return nil, 0, err
	}
	var holds []Hold
	var disconnects int64
	for {
		line, err := c.next(ctx, finishTimeout)
		if err != nil {
			return nil, 0, err
		}
		switch {
		case line == "done":
			return holds, disconnects, nil
		case strings.HasPrefix(line, "hold "):
			h, err := parseHold(line)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", c.name, err)
			}
			holds = append(holds, h)
		case strings.HasPrefix(line, "disconnects "):
			if disconnects, err = strconv.ParseInt(strings.TrimPrefix(line, "disconnects "), 10, 64); err != nil {
				return nil, 0, fmt.Errorf("%s: bad line %q", c.name, line)
			}
		default:
			return nil, 0, fmt.Errorf("%s: %s", c.name, line)
		}
	}
}

// parseHold reads "hold ID ACQUIRED_US RELEASING_US".
func parseHold(line string) (Hold, error) {
	w := strings.Fields(line)
	if len(w) != 4 {
		return Hold{}, fmt.Errorf("bad hold line %q", line)
	}
	var n [3]int64
	for i := range n {
		v, err := strconv.ParseInt(w[i+1], 10, 64)
		if err != nil {
			return Hold{}, fmt.Errorf("bad hold line %q: %w", line, err)
		}
		n[i] = v
	}
	return Hold{Contender: int(n[0]), Acquired: n[1], Released: n[2]}, nil
}

// nextWhileWorking returns the next stdout line, waiting as long as the
// program uses CPU time: a JVM opening 32 sessions on two busy cores takes
// a few seconds, and on a starved machine minutes, yet gets on. It fails
// when the program exits or uses no CPU time for zkserver.StallTimeout,
// as a server's start does. (Where CPU time cannot be read, outside Linux,
// a fixed minute bounds it.)
func (c *child) nextWhileWorking(ctx context.Context) (string, error) {
	pid := c.cmd.Process.Pid
	start := time.Now()
	used, _ := zkserver.ProcessCPUTime(pid)
	moved := start
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("%s exited", c.name)
			}
			return line, nil
		case <-ctx.Done():
			return "", ctx.Err()
		case <-tick.C:
		}
		now, ok := zkserver.ProcessCPUTime(pid)
		switch {
		case ok && now > used:
			used, moved = now, time.Now()
		case ok && time.Since(moved) >= zkserver.StallTimeout:
			return "", fmt.Errorf("%s said nothing and used no CPU time for %v", c.name, zkserver.StallTimeout)
		case !ok && time.Since(start) >= time.Minute:
			return "", fmt.Errorf("%s said nothing for %v", c.name, time.Minute)
		}
	}
}

// next returns the next stdout line.
func (c *child) next(ctx context.Context, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line, ok := <-c.lines:
		if !ok {
			return "", fmt.Errorf("%s exited", c.name)
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-t.C:
		return "", fmt.Errorf("%s said nothing for %v", c.name, timeout)
	}
}

func (c *child) send(line string) error {
	_, err := io.WriteString(c.stdin, line+"\n")
	return err
}

// close shuts stdin, which ends the program, and kills it if it lingers.
func (c *child) close() {
	c.once.Do(func() {
		c.stdin.Close()
		go func() {
			for range c.lines {
			}
		}()
		select {
		case <-c.exited:
		case <-time.After(exitTimeout):
			zkserver.KillGroup(c.cmd.Process)
			<-c.exited
		}
	})
}

// lineWriter calls logf once per complete line written to it.
type lineWriter struct {
	mu   sync.Mutex
	logf func(string, ...any)
	buf  []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			return len(b), nil
		}
		w.logf("%s", w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}
