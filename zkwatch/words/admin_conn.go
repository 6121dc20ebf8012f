package words

import (
	"context"
	"errors"
	"net"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
)

// identifiedConn is a connection to an AdminServer that remembers which server
// its configuration said answers over it. A proof holds for the
// connection it went over: a TCP balancer picks a server per connection,
// so every answer read over a proven connection is that server's, and a
// new connection is proven before it is believed.
type identifiedConn struct {
	net.Conn
	id atomic.Pointer[adminIdentity]
}

// wrapDial makes every connection dial opens an identifiedConn.
func wrapDial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &identifiedConn{Conn: c}, nil
	}
}

// connectionOf finds the identifiedConn under a connection the transport handed
// a request (a TLS connection wraps it), or nil.
func connectionOf(c net.Conn) *identifiedConn {
	for c != nil {
		if ac, ok := c.(*identifiedConn); ok {
			return ac
		}
		inner, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		c = inner.NetConn()
	}
	return nil
}

// connSeen is the connection the transport handed one request.
type connSeen struct {
	mu   sync.Mutex
	conn net.Conn
}

// trace returns ctx with a trace that notes the request's connection.
func (s *connSeen) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		s.mu.Lock()
		s.conn = info.Conn
		s.mu.Unlock()
	}})
}

// get returns the identifiedConn the request went over, or nil.
func (s *connSeen) get() *identifiedConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return connectionOf(s.conn)
}

// errUnprovenConn is an answer that came over a connection no proof went
// over: it is not read, and the proof is asked first.
var errUnprovenConn = errors.New("words: the answer came over a connection not proven to be the member's")

// provenConn returns a check that an answer's connection was proven to
// be member's AdminServer's (url, for messages): nil if so, an error
// wrapping ErrAdminElsewhere or ErrAdminUntied if it was proven to be
// another's, errUnprovenConn if no proof went over it.
func provenConn(url, member string) func(*identifiedConn) error {
	return func(c *identifiedConn) error {
		if c == nil {
			return errUnprovenConn
		}
		id := c.id.Load()
		if id == nil {
			return errUnprovenConn
		}
		return id.ties(url, member)
	}
}

// keptFor is how long after its last answer a proven connection is taken
// to be still open: ZooKeeper's AdminServer (Jetty) closes a connection
// idle for admin.idleTimeout, 30 s unless set. Past it the proof is asked
// first, so that an expensive command (a dump) is not answered over a new
// connection only to be thrown away unread.
const keptFor = 20 * time.Second

// provenMembers remembers, by member, when an answer last came over a
// connection proven to be the member's, so that a command is asked at
// once over the connection the transport keeps while it is likely open.
type provenMembers struct {
	now  func() time.Time // nil: time.Now
	mu   sync.Mutex
	last map[string]time.Time
}

func (p *provenMembers) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// used notes an answer over a connection proven to be member's.
func (p *provenMembers) used(member string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last == nil {
		p.last = map[string]time.Time{}
	}
	p.last[member] = p.clock()
}

// kept reports whether a connection proven to be member's answered
// within keptFor, so that the transport likely still holds it.
func (p *provenMembers) kept(member string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.last[member]
	return ok && p.clock().Sub(at) < keptFor
}
