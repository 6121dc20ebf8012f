package zkserver

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// stand-in starts program (not a JVM) as the process of a server on a port
// where nothing listens, so that it never serves.
func standIn(t *testing.T, program string, args ...string) *Server {
	t.Helper()
	ports, err := FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &Server{dir: dir, port: ports[0]}
	p, err := launch(program, args, dir, filepath.Join(dir, "zookeeper.log"))
	if err != nil {
		t.Fatal(err)
	}
	s.proc = p
	t.Cleanup(func() { _ = s.Kill() })
	return s
}

func TestWaitFailsAStartThatStalls(t *testing.T) {
	s := standIn(t, "sleep", "60")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	err := waitAll(ctx, time.Second, []*Server{s})
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("a process that uses no CPU and never serves: %v, want ErrStalled", err)
	}
	if s.PID() != 0 {
		t.Errorf("the stalled process still runs")
	}
}

func TestWaitWaitsWhileTheServerWorks(t *testing.T) {
	s := standIn(t, "sh", "-c", "while :; do :; done")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	err := waitAll(ctx, time.Second, []*Server{s})
	if errors.Is(err, ErrStalled) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a process that works and never serves: %v, want the context's end, not ErrStalled", err)
	}
}

func TestWaitReportsAnExit(t *testing.T) {
	s := standIn(t, "true")
	err := waitAll(context.Background(), time.Minute, []*Server{s})
	if !errors.Is(err, ErrExited) {
		t.Fatalf("a process that exits: %v, want ErrExited", err)
	}
}

func TestFreePortsNeverRepeats(t *testing.T) {
	seen := map[int]bool{}
	// One port at a time, as the servers of a test take theirs: the
	// kernel offers a port just closed again soon.
	for range 300 {
		ports, err := FreePorts(1)
		if err != nil {
			t.Fatal(err)
		}
		if seen[ports[0]] {
			t.Fatalf("FreePorts handed out port %d twice", ports[0])
		}
		seen[ports[0]] = true
	}
}
