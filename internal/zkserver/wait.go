package zkserver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// StallTimeout is how long a start may go without its JVMs using any CPU
// time of their own before WaitAll judges it stuck. A quiet machine starts
// a server with half a second of CPU time in a second or two; a loaded one
// hands that half second out over tens of seconds, a few milliseconds at a
// time, and never leaves a working JVM without any for this long.
const StallTimeout = 30 * time.Second

// probeEvery is how often a start asks each server for its mode.
const probeEvery = 100 * time.Millisecond

// WaitAll blocks until every launched server serves (its srvr reply has a
// "Mode:" line; a quorum member's, leader, follower or observer), or the
// start fails: a JVM exits, ctx ends, or the start stalls (ErrStalled):
// none of the servers' JVMs has used any CPU time for 30 seconds, but in
// the threads that answer client connections, which the readiness probe
// itself keeps busy. A machine that gives the JVMs little CPU makes a
// start slow, not failed; a JVM that is hung or blocked fails it. (Where
// the JVMs' CPU time cannot be read, outside Linux, only ctx bounds the
// wait.) The members of an ensemble are waited for together, as none
// serves before a quorum has started. On failure every server is killed,
// and the error ends with the tail of the log of the first server that did
// not serve.
func WaitAll(ctx context.Context, servers ...*Server) error {
	return waitAll(ctx, StallTimeout, servers)
}

// starting is one server WaitAll waits for.
type starting struct {
	s     *Server
	p     *process
	ready func(mode string) bool
	last  string // the last mode it answered, "" before any
	up    bool
}

func waitAll(ctx context.Context, stall time.Duration, servers []*Server) error {
	all := make([]*starting, len(servers))
	for i, s := range servers {
		s.mu.Lock()
		p := s.proc
		s.mu.Unlock()
		if p == nil {
			return fmt.Errorf("zkserver: %s is not running", s.Addr())
		}
		ready := anyMode
		if len(s.cfg.Peers) > 0 {
			ready = quorumMode
		}
		all[i] = &starting{s: s, p: p, ready: ready}
	}
	err := waitUp(ctx, stall, all)
	if err == nil {
		return nil
	}
	for _, st := range all {
		_ = st.s.Kill()
	}
	return err
}

// waitUp probes the servers until all serve, one exits, ctx ends or the
// start stalls.
func waitUp(ctx context.Context, stall time.Duration, all []*starting) error {
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	used, _ := workOf(all)
	progressAt := time.Now()
	for {
		var waiting *starting
		for _, st := range all {
			if st.up {
				continue
			}
			if m := Mode(ctx, st.s.Addr()); m != "" {
				st.last = m
				st.up = st.ready(m)
			}
			if !st.up && waiting == nil {
				waiting = st
			}
		}
		if waiting == nil {
			return nil
		}
		for _, st := range all {
			if st.p.exited() {
				return st.fail(fmt.Errorf("%w: %v", ErrExited, st.p.err))
			}
		}
		if sofar, ok := workOf(all); ok && sofar > used {
			used, progressAt = sofar, time.Now()
		} else if ok && time.Since(progressAt) >= stall {
			return waiting.fail(fmt.Errorf("%w: its JVMs used no CPU time for %v (%v in all)", ErrStalled, stall, sofar))
		}
		select {
		case <-ctx.Done():
			return waiting.fail(ctx.Err())
		case <-tick.C:
		}
	}
}

// workOf returns the CPU time the servers' JVMs have used outside their
// connection threads; ok is false when none can be read.
func workOf(all []*starting) (used time.Duration, ok bool) {
	for _, st := range all {
		if d, read := work(st.p.cmd.Process.Pid); read {
			used, ok = used+d, true
		}
	}
	return used, ok
}

// CPUTime returns the CPU time the server's JVM has used, but in the
// threads that answer client connections (which the caller's own probes
// keep busy): while it grows, the JVM is getting on with something. ok is
// false while the server is not running, and outside Linux.
func (s *Server) CPUTime() (used time.Duration, ok bool) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil || p.exited() {
		return 0, false
	}
	return work(p.cmd.Process.Pid)
}

// fail says why st did not come up, with the end of its log.
func (st *starting) fail(err error) error {
	last := st.last
	if last == "" {
		last = "none"
	}
	if !errors.Is(err, ErrExited) {
		err = fmt.Errorf("zkserver: %s not ready (last mode %s): %w", st.s.Addr(), last, err)
	}
	return fmt.Errorf("%w\n%s", err, logTail(st.s.LogPath(), 40))
}

// ProcessCPUTime returns the CPU time process pid has used, but in threads
// named as a ZooKeeper server's connection threads: a test kit judges by
// its growth whether a JVM or Python program it waits for is getting on,
// as WaitAll judges a server's start. ok is false when it cannot be read:
// the process is gone, or outside Linux.
func ProcessCPUTime(pid int) (used time.Duration, ok bool) { return work(pid) }
