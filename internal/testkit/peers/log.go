package peers

import (
	"sync"
	"testing"
)

// discard is a zk.Logger that drops everything: the observer's connection
// chatter is noise.
type discard struct{}

func (discard) Printf(string, ...any) {}

// testLog sends log lines to t.Logf until stopped, since t.Logf after the
// test has ended panics. It implements zk.Logger.
type testLog struct {
	t      testing.TB
	prefix string

	mu      sync.Mutex
	stopped bool
}

// Printf logs one line to the test, unless stopped.
func (l *testLog) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.t.Logf(l.prefix+format, args...)
	}
}

func (l *testLog) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}
