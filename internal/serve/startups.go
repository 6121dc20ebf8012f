package serve

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// The defaults of the limits on connections not signed in yet, as
// OpenSSH's MaxStartups, PerSourceMaxStartups and LoginGraceTime bound
// them: a bastion's port faces the network, and connections that never
// sign in must not use up the process's file descriptors, locking
// everyone out.
const (
	DefaultMaxStartups          = 100
	DefaultPerSourceMaxStartups = 10
	DefaultLoginGraceTime       = 30 * time.Second
)

// refusalLogEvery is how often refusals from one address are logged: once
// for the first, then a count at most this often, never a line each.
const refusalLogEvery = time.Minute

// startups bounds the connections that have not signed in yet (that have
// not opened their session): at most max in all and perSource from one
// address; more are closed as they are accepted. One not signed in within
// grace is closed.
type startups struct {
	max, perSource int
	grace          time.Duration
	logf           func(format string, args ...any)

	mu       sync.Mutex
	total    int
	bySource map[string]int
	pending  map[string]*startupConn // by remote address
	refused  map[string]*refusals    // by source address
}

// refusals are a source's refusals since they were last logged.
type refusals struct {
	logged time.Time
	n      int
}

func newStartups(max, perSource int, grace time.Duration, logf func(string, ...any)) *startups {
	return &startups{max: max, perSource: perSource, grace: grace, logf: logf, bySource: map[string]int{},
		pending: map[string]*startupConn{}, refused: map[string]*refusals{}}
}

// startupListener is a listener whose connections count as startups
// until they sign in.
type startupListener struct {
	net.Listener
	s *startups
}

// Accept returns the next connection within the limits, closing those
// beyond them as they come.
func (l startupListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if sc := l.s.admit(c); sc != nil {
			return sc, nil
		}
		c.Close()
	}
}

// admit counts c in, or says why not (logged once a source and interval).
func (s *startups) admit(c net.Conn) *startupConn {
	remote := c.RemoteAddr().String()
	src := hostOf(remote)
	s.mu.Lock()
	defer s.mu.Unlock()
	why := ""
	switch {
	case s.max > 0 && s.total >= s.max:
		why = fmt.Sprintf("%d connections are not signed in yet, the most allowed (max-startups)", s.total)
	case s.perSource > 0 && s.bySource[src] >= s.perSource:
		why = fmt.Sprintf("%d connections from it are not signed in yet, the most allowed from one address (per-source-max-startups)", s.bySource[src])
	}
	if why != "" {
		s.refuse(src, why)
		return nil
	}
	sc := &startupConn{Conn: c, s: s, remote: remote, src: src}
	s.total++
	s.bySource[src]++
	s.pending[remote] = sc
	if s.grace > 0 {
		sc.timer = time.AfterFunc(s.grace, func() {
			if s.done(sc) {
				s.logf("closed the connection from %s: not signed in within %s (login-grace-time)", remote, s.grace)
				sc.Conn.Close()
			}
		})
	}
	return sc
}

// refuse logs a refusal from src: the first at once, then how many every
// refusalLogEvery at most. Called with s.mu held.
func (s *startups) refuse(src, why string) {
	r := s.refused[src]
	now := time.Now()
	if r == nil {
		if len(s.refused) > 10000 {
			// A flood from many addresses: forget the oldest counts
			// rather than grow without bound.
			for k, old := range s.refused {
				if now.Sub(old.logged) > refusalLogEvery {
					delete(s.refused, k)
				}
			}
		}
		s.refused[src] = &refusals{logged: now}
		s.logf("refused a connection from %s at accept: %s (further refusals from it are counted, once a minute)", src, why)
		return
	}
	r.n++
	if now.Sub(r.logged) >= refusalLogEvery {
		s.logf("refused %d more connections from %s at accept in the last %s: %s", r.n, src, now.Sub(r.logged).Round(time.Second), why)
		r.logged, r.n = now, 0
	}
}

// done takes sc off the startups, reporting whether it was on them.
func (s *startups) done(sc *startupConn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[sc.remote] != sc {
		return false
	}
	delete(s.pending, sc.remote)
	s.total--
	if s.bySource[sc.src]--; s.bySource[sc.src] <= 0 {
		delete(s.bySource, sc.src)
	}
	if sc.timer != nil {
		sc.timer.Stop()
	}
	return true
}

// signedIn takes the connection from remote off the startups: it has
// signed in and opened its session.
func (s *startups) signedIn(remote string) {
	s.mu.Lock()
	sc := s.pending[remote]
	s.mu.Unlock()
	if sc != nil {
		s.done(sc)
	}
}

// startupConn is a connection counted as a startup until it signs in or
// closes.
type startupConn struct {
	net.Conn
	s      *startups
	remote string
	src    string
	timer  *time.Timer
}

// Close closes the connection, taking it off the startups.
func (c *startupConn) Close() error {
	c.s.done(c)
	return c.Conn.Close()
}
