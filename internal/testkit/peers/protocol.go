package peers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// status returns contender id's status, failing the test if there is none.
func (p *Peer) status(t testing.TB, id string) *status {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.contenders[id]
	if s == nil {
		t.Fatalf("peers: %s has no contender %q", p.kind, id)
	}
	return s
}

// handle applies one line from the backend.
func (p *Peer) handle(line string) {
	verb, rest, _ := strings.Cut(line, " ")
	id, msg, _ := strings.Cut(rest, " ")
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.contenders[id]
	if s == nil {
		p.log.Printf("unexpected line %q", line)
		return
	}
	switch verb {
	case "session":
		session, err := strconv.ParseUint(msg, 16, 64)
		if err != nil {
			s.err = fmt.Sprintf("bad session %q", msg)
		}
		s.session = int64(session)
	case "acquired":
		s.held = true
	case "released":
		s.held, s.released = false, true
	case "error":
		s.err = msg
	default:
		p.log.Printf("unexpected line %q", line)
		return
	}
	close(p.changed)
	p.changed = make(chan struct{})
}

// end records that the backend has stopped, for everyone waiting on it.
func (p *Peer) end(err error) {
	if err == nil {
		err = errors.New("peer exited")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = err
	close(p.changed)
	p.changed = make(chan struct{})
}

// failure is the contender's reported error, if any. Call with p.mu held.
func (s *status) failure() error {
	if s.err != "" {
		return errors.New(s.err)
	}
	return nil
}

// await blocks until cond, called with p.mu held, says done or fails, the
// backend stops, or timeout passes.
func (p *Peer) await(timeout time.Duration, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	return p.wait(cond, func() error {
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %v", errTimeout, timeout)
		}
		return nil
	})
}

// awaitStep blocks until cond, called with p.mu held, says done or fails,
// or the backend stops; a peer in its own process is waited for while it
// uses CPU time (see progressJudge), one in ours for stepTimeout.
func (p *Peer) awaitStep(cond func() (bool, error)) error {
	return p.wait(cond, p.stepJudge())
}

// stepJudge returns what says when a step of this peer should give up:
// its process's progress, or stepTimeout for a peer in our process.
func (p *Peer) stepJudge() func() error {
	if c, ok := p.backend.(*child); ok {
		return newProgressJudge(c.cpuTime, stallTimeout).giveUp
	}
	deadline := time.Now().Add(stepTimeout)
	return func() error {
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %v", errTimeout, stepTimeout)
		}
		return nil
	}
}

// wait blocks until cond says done or fails, the backend stops, or giveUp,
// asked at each change and every judgeInterval, says why not to go on.
func (p *Peer) wait(cond func() (bool, error), giveUp func() error) error {
	tick := time.NewTicker(judgeInterval)
	defer tick.Stop()
	for {
		p.mu.Lock()
		done, err := cond()
		ended, changed := p.ended, p.changed
		p.mu.Unlock()
		switch {
		case err != nil:
			return err
		case done:
			return nil
		case ended != nil:
			return ended
		}
		if err := giveUp(); err != nil {
			return err
		}
		select {
		case <-changed:
		case <-tick.C:
		}
	}
}
