package zktest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Startup budgets: a JVM starts in a second or two, but the test machine may
// be running several, under the race detector, on two cores.
const (
	standaloneTimeout = 30 * time.Second
	ensembleTimeout   = 60 * time.Second
)

// Server is one ZooKeeper server run by this package: standalone from
// [Start], or a member of an [Ensemble]. Its address and data directory stay
// the same across [Server.Stop] and [Server.Restart]. Methods that can fail
// report to the testing.TB the server was started with, so call them from the
// test's goroutine.
type Server struct {
	t       testing.TB
	jvm     jvm
	cfg     config
	dir     string // holds zoo.cfg, data/ and zookeeper.log
	port    int    // client port on 127.0.0.1
	quorum  bool   // a member of an ensemble
	timeout time.Duration

	mu   sync.Mutex
	proc *process // nil while stopped
}

// Start starts a standalone ZooKeeper on a free loopback port with a
// temporary data directory, and returns once it serves clients (its srvr
// reply has a "Mode:" line). t's Cleanup stops the server and removes its
// files. A missing java or ZooKeeper installation fails the test with the
// command that installs them; a server that does not come up within 30
// seconds fails it with the end of the server's log.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	return start(t, defaultJarDir, opts)
}

// start is Start with the jar directory as a parameter, for tests.
func start(t testing.TB, jarDir string, opts []Option) *Server {
	t.Helper()
	j, err := findJVM(jarDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := newConfig(opts)
	// The free port can be taken between our probe and the server's bind;
	// when the log says so, try again on another.
	for attempt := 1; ; attempt++ {
		s := newServer(t, j, cfg, t.TempDir(), freePorts(t, 1)[0])
		s.writeConfig(nil)
		err := s.run()
		if err == nil {
			return s
		}
		if attempt < 3 && s.portTaken() {
			t.Logf("zktest: port %d was taken, retrying: %v", s.port, err)
			continue
		}
		t.Fatalf("zktest: start standalone server on %s: %v", s.Addr(), err)
	}
}

// newServer prepares a server in dir and registers its stop with t.Cleanup.
// Cleanups run last-registered first, so the server is stopped before dir,
// a t.TempDir, is removed.
func newServer(t testing.TB, j jvm, cfg config, dir string, port int) *Server {
	s := &Server{t: t, jvm: j, cfg: cfg, dir: dir, port: port, timeout: standaloneTimeout}
	if err := os.MkdirAll(s.dataDir(), 0o755); err != nil {
		t.Fatalf("zktest: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Addr returns the client address, "127.0.0.1:PORT".
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Port returns the client port.
func (s *Server) Port() int { return s.port }

// Stop kills the server's JVM and waits for it to exit. The data directory
// stays, so [Server.Restart] brings back the same tree; sessions whose
// clients do not reconnect within their timeout expire on restart as usual.
// Stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil {
		return
	}
	if err := p.kill(); err != nil {
		s.t.Errorf("zktest: stop %s: %v", s.Addr(), err)
	}
}

// Restart stops the server if it runs, starts it again on the same port and
// data, and waits until it serves: for an ensemble member, until it has
// rejoined a quorum, which needs a majority of members running. A server that
// does not come back fails the test.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	if err := s.run(); err != nil {
		s.t.Fatalf("zktest: restart %s: %v", s.Addr(), err)
	}
}

// run launches the JVM and waits for it to serve.
func (s *Server) run() error {
	if err := s.launch(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	return s.wait(ctx)
}

// launch starts the JVM without waiting for it.
func (s *Server) launch() error {
	p, err := launch(s.jvm.java, s.jvm.args(s.cfg, s.cfgPath()), s.dir, s.logPath())
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return nil
}

// wait blocks until the launched JVM serves. On failure it stops the JVM and
// returns an error that ends with the tail of the server log.
func (s *Server) wait(ctx context.Context) error {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		return errors.New("zktest: server is not running")
	}
	ready := anyMode
	if s.quorum {
		ready = quorumMode
	}
	if _, err := waitMode(ctx, p, s.Addr(), ready); err != nil {
		s.Stop()
		return fmt.Errorf("%w\n%s", err, logTail(s.logPath(), 40))
	}
	return nil
}

// portTaken reports whether the server log says its port was in use.
func (s *Server) portTaken() bool {
	b, err := os.ReadFile(s.logPath())
	return err == nil && strings.Contains(string(b), "Address already in use")
}

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }
func (s *Server) cfgPath() string { return filepath.Join(s.dir, "zoo.cfg") }
func (s *Server) logPath() string { return filepath.Join(s.dir, "zookeeper.log") }

// writeConfig writes zoo.cfg; peers are an ensemble's server.N lines.
func (s *Server) writeConfig(peers []string) {
	s.t.Helper()
	if err := os.WriteFile(s.cfgPath(), []byte(zooCfg(s.cfg, s.dataDir(), s.port, peers)), 0o644); err != nil {
		s.t.Fatalf("zktest: write zoo.cfg: %v", err)
	}
}

// freePorts returns n distinct loopback ports that were free a moment ago.
// All n listeners are open at once so that the kernel cannot hand out the
// same port twice.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("zktest: find a free port: %v", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
