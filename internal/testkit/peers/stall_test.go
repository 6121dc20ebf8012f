package peers

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stallPeer is a Peer whose process is bash running script, with one
// contender, c1, awaiting its session line, and a short stall bound.
func stallPeer(t *testing.T, stall time.Duration, script string) (*Peer, *status) {
	t.Helper()
	old := stallTimeout
	stallTimeout = stall
	t.Cleanup(func() { stallTimeout = old })
	s := &status{}
	p := &Peer{
		kind: Curator, t: t, log: &testLog{t: t, prefix: "bash: "},
		contenders: map[string]*status{"c1": s}, changed: make(chan struct{}),
	}
	c, err := startChild("/bin/bash", []string{"-c", script}, nil, p.handle, p.log.Printf, p.end)
	if err != nil {
		t.Fatal(err)
	}
	p.backend = c
	t.Cleanup(func() { _ = c.signal(syscall.SIGCONT); _ = c.kill(); p.log.stop() })
	return p, s
}

func sessionOf(p *Peer, s *status) func() (bool, error) {
	return func() (bool, error) { return s.session != 0, s.failure() }
}

// A peer that takes many stall bounds to say its session, using CPU time
// all along, as a starved JVM does, is waited for.
func TestAwaitStepWaitsForAProgressingPeer(t *testing.T) {
	const stall = time.Second
	// Busy for three stall bounds of wall time from its start (after
	// this one), then the session.
	start := time.Now()
	p, s := stallPeer(t, stall, `end=$(( ${EPOCHREALTIME/./} + 3000000 ))
while (( ${EPOCHREALTIME/./} < end )); do :; done
echo session c1 1f
read -r _`)
	if err := p.awaitStep(sessionOf(p, s)); err != nil {
		t.Fatalf("a peer using CPU time was given up after %v: %v", time.Since(start), err)
	}
	p.mu.Lock()
	session := s.session
	p.mu.Unlock()
	if session != 0x1f {
		t.Errorf("session %#x, want 0x1f", session)
	}
	if waited := time.Since(start); waited < 3*stall {
		t.Errorf("the session came after %v, before the peer said it", waited)
	}
}

// A frozen peer uses no CPU time: its step fails one stall bound after it
// stopped, not at a fixed timeout.
func TestAwaitStepFailsAFrozenPeer(t *testing.T) {
	const stall = time.Second
	p, s := stallPeer(t, stall, `while :; do :; done`)
	if err := p.backend.(*child).signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := p.awaitStep(sessionOf(p, s))
	if !errors.Is(err, errTimeout) || !strings.Contains(err.Error(), "used no CPU time for 1s") {
		t.Fatalf("a frozen peer: %v, want it to have used no CPU time for 1s", err)
	}
	if waited := time.Since(start); waited < stall {
		t.Errorf("given up after %v, before the stall bound", waited)
	}
}

// A peer that exits fails its step at once, with why.
func TestAwaitStepFailsAnExitedPeer(t *testing.T) {
	p, s := stallPeer(t, time.Hour, `exit 3`)
	err := p.awaitStep(sessionOf(p, s))
	if err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("an exited peer: %v, want its exit status", err)
	}
}
