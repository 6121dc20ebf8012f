package zktest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/zkserver"
)

// Shared is one standalone server for the tests of a package that never
// stop, restart or proxy their server, so that they start one JVM between
// them instead of one each. Each test works under a root of its own
// ([Shared.Root]). Declare one per package and stop it after the tests:
//
//	var shared zktest.Shared
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		shared.Stop()
//		os.Exit(code)
//	}
//
// A test that stops, restarts or proxies its server, or that looks at the
// whole tree from /, starts its own with [Start]. The server starts at the
// first test that asks for it (an integration test: see [Start]); a server
// that fails to start fails that test and every later one that asks.
type Shared struct {
	mu    sync.Mutex
	srv   *zkserver.Server
	err   error
	roots int
}

// Start returns the shared server, starting it at the first call. Its
// Stop and Restart fail the test: the server is the package's.
func (s *Shared) Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	requireIntegration(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil && s.err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), startBackstop)
		defer cancel()
		s.srv, s.err = zkserver.Start(ctx, newConfig(opts).server(zkserver.DefaultJarDir, ""))
	}
	if s.err != nil {
		failStart(t, "start shared server", s.err)
	}
	return &Server{t: t, srv: s.srv, shared: true}
}

// Root returns a path of t's own on the shared server, created empty:
// "/" + t's name, made a single path element, and a number.
func (s *Shared) Root(t testing.TB) string {
	t.Helper()
	srv := s.Start(t)
	s.mu.Lock()
	s.roots++
	root := "/" + strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()) + "-" + strconv.Itoa(s.roots)
	s.mu.Unlock()
	if _, err := srv.Connect(t).Create(root, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatalf("zktest: create %s: %v", root, err)
	}
	return root
}

// Stop stops the shared server and removes its files, if it was started.
func (s *Shared) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		_ = s.srv.Stop()
		s.srv = nil
	}
}
