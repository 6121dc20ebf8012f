package zktest

import (
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// Client timeouts: the session is clamped by the server to at most 20 ticks
// (10 s); connecting includes a JVM that may still be warming up.
const (
	sessionTimeout = 10 * time.Second
	connectTimeout = 15 * time.Second
	// setWatchesSettle is how long a new connection is left to send its
	// set-watches before it is handed over (see connect).
	setWatchesSettle = 20 * time.Millisecond
)

// ClientSessionTimeout is the session timeout of the clients Connect
// makes: go-zookeeper drops a connection that has heard nothing for two
// thirds of it, so a request made there must be answered sooner.
const ClientSessionTimeout = sessionTimeout

// Connect returns a go-zookeeper connection to this server alone that has a
// session. Its log goes to t.Logf, and t's Cleanup closes it (before the
// server stops, if the server was started first). Connection events are
// drained and dropped; a test that needs them should call zk.Connect itself.
func (s *Server) Connect(t testing.TB) *zk.Conn {
	t.Helper()
	return connect(t, []string{s.Addr()})
}

// Connect is like [Server.Connect] with every member in the server list, so
// the client fails over when its server stops.
func (e *Ensemble) Connect(t testing.TB) *zk.Conn {
	t.Helper()
	return connect(t, e.addrs())
}

func connect(t testing.TB, addrs []string) *zk.Conn {
	t.Helper()
	lg := &testLogger{t: t}
	conn, events, err := zk.Connect(addrs, sessionTimeout, zk.WithLogger(lg))
	if err != nil {
		t.Fatalf("zktest: connect to %v: %v", addrs, err)
	}
	hasSession := make(chan struct{})
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		var once sync.Once
		for ev := range events {
			if ev.State == zk.StateHasSession {
				once.Do(func() { close(hasSession) })
			}
		}
	}()
	t.Cleanup(func() {
		conn.Close()
		// The event channel closes when the connection's goroutines finish;
		// after that nothing logs, but stop the logger anyway, as t.Logf
		// after the test has ended panics.
		select {
		case <-drained:
		case <-time.After(5 * time.Second):
		}
		lg.stop()
	})
	select {
	case <-hasSession:
		// go-zookeeper v1.0.4 reports the session, then starts its
		// connection's receiving and sends the set-watches, which reads
		// lastZxid (conn.go:614) unguarded while receiving writes it
		// (conn.go:849): a watch the test sets and sees answered in that
		// gap makes the race detector fail the test. The gap is the time
		// to start two goroutines.
		time.Sleep(setWatchesSettle)
		return conn
	case <-time.After(connectTimeout):
		t.Fatalf("zktest: no session with %v after %v (state %v)", addrs, connectTimeout, conn.State())
		return nil
	}
}

// testLogger sends go-zookeeper's log to t.Logf until stopped.
type testLogger struct {
	t       testing.TB
	mu      sync.Mutex
	stopped bool
}

// Printf implements zk.Logger.
func (l *testLogger) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.t.Logf("zk: "+format, args...)
	}
}

func (l *testLogger) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}
