package zktest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// installHint is the command that provides java, the ZooKeeper jars and the
// peer clients the integration tests use.
const installHint = "apt-get install -y zookeeper python3-kazoo libcurator-recipes-java"

// startBackstop bounds a start that keeps working without ever serving.
// A start is not timed: a JVM starts in a second or two on a quiet machine
// and in tens of seconds on a loaded one, and zkserver fails it only when
// it stops using CPU time (stalls) or exits.
const startBackstop = 10 * time.Minute

// Server is one ZooKeeper server run by this package: standalone from
// [Start], or a member of an [Ensemble]. Its address and data directory stay
// the same across [Server.Stop] and [Server.Restart]. Methods that can fail
// report to the testing.TB the server was started with, so call them from the
// test's goroutine.
type Server struct {
	t   testing.TB
	srv *zkserver.Server
	// shared: the server is a Shared one, which the test may not stop.
	shared bool
}

// Start starts a standalone ZooKeeper on a free loopback port with a
// temporary data directory, and returns once it serves clients (its srvr
// reply has a "Mode:" line), however long a loaded machine makes that take.
// t's Cleanup stops the server and removes its files. A missing java or
// ZooKeeper installation fails the test with the command that installs
// them; a server that exits, or stalls (uses no CPU time for 30 s, see
// zkserver.WaitAll), before it serves fails it with the end of the
// server's log. Only a test named TestIntegration… (or a benchmark) may
// start one.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	requireIntegration(t)
	return start(t, zkserver.DefaultJarDir, opts)
}

// requireIntegration fails a test that would start a JVM without being
// named TestIntegration… (or being a benchmark): make unit, which promises
// no JVM, skips the tests by that name and no other.
func requireIntegration(t testing.TB) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if strings.HasPrefix(top, "TestIntegration") || strings.HasPrefix(top, "Benchmark") {
		return
	}
	t.Fatalf("zktest: %s starts a ZooKeeper JVM: name it TestIntegration… (make unit runs no JVM)", top)
}

// start is Start with the jar directory as a parameter, for tests.
func start(t testing.TB, jarDir string, opts []Option) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startBackstop)
	defer cancel()
	// The directory is t's, so that Stop keeps the data for Restart and
	// the test's end removes it (after the server's Cleanup, registered
	// later, has stopped the server).
	srv, err := zkserver.Start(ctx, newConfig(opts).server(jarDir, t.TempDir()))
	if err != nil {
		failStart(t, "start standalone server", err)
	}
	return track(t, srv)
}

// failStart fails t, naming the tests' installation command when java or
// ZooKeeper is missing.
func failStart(t testing.TB, what string, err error) {
	t.Helper()
	if errors.Is(err, zkserver.ErrNotInstalled) {
		t.Fatalf("zktest: %v; everything the integration tests need installs with: %s", err, installHint)
	}
	t.Fatalf("zktest: %s: %v", what, err)
}

// track wraps srv and registers its stop with t.Cleanup.
func track(t testing.TB, srv *zkserver.Server) *Server {
	s := &Server{t: t, srv: srv}
	t.Cleanup(s.Stop)
	return s
}

// Addr returns the client address, "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.srv.Addr() }

// LogPath is the server's own log (zookeeper.log), kept across restarts.
func (s *Server) LogPath() string { return s.srv.LogPath() }

// DataDir is the server's data directory, which holds version-2/ (its
// transaction logs and snapshots).
func (s *Server) DataDir() string { return s.srv.DataDir() }

// AdminPort returns the AdminServer's port on 127.0.0.1, or 0 when the
// server has none (see WithAdminServer).
func (s *Server) AdminPort() int { return s.srv.AdminPort() }

// Port returns the client port.
func (s *Server) Port() int { return s.srv.Port() }

// Stop kills the server's JVM and waits for it to exit. The data directory
// stays, so [Server.Restart] brings back the same tree; sessions whose
// clients do not reconnect within their timeout expire on restart as usual.
// Stopping a stopped server does nothing.
func (s *Server) Stop() {
	if s.shared {
		s.t.Fatalf("zktest: a shared server cannot be stopped by a test: start one with Start")
	}
	if err := s.srv.Kill(); err != nil {
		s.t.Errorf("zktest: stop %s: %v", s.Addr(), err)
	}
}

// Restart stops the server if it runs, starts it again on the same port and
// data, and waits until it serves: for an ensemble member, until it has
// rejoined a quorum, which needs a majority of members running. A server that
// does not come back fails the test.
func (s *Server) Restart() {
	s.t.Helper()
	if s.shared {
		s.t.Fatalf("zktest: a shared server cannot be restarted by a test: start one with Start")
	}
	ctx, cancel := context.WithTimeout(context.Background(), startBackstop)
	defer cancel()
	if err := s.srv.Restart(ctx); err != nil {
		s.t.Fatalf("zktest: restart %s: %v", s.Addr(), err)
	}
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	ports, err := zkserver.FreePorts(n)
	if err != nil {
		t.Fatalf("zktest: %v", err)
	}
	return ports
}
