package zkwatch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// authConn is a client connection as go-zookeeper sees it, one frame at a
// time. go-zookeeper writes its connect request and reads the server's
// connect response before its send and receive loops start; authConn
// reads that response first and, when it opens a session and a SASL
// mechanism is configured, authenticates the connection (opcode 102)
// before go-zookeeper gets the response. So every connection of the
// session, a reconnect or a failover to another member as much as the
// first, is authenticated before go-zookeeper sends anything on it, and a
// failed exchange fails go-zookeeper's handshake rather than a request.
//
// After the handshake it passes frames through, taking out the replies to
// the requests zkwatch sends itself (whoAmI) under xids go-zookeeper never
// uses, and noting a reply that says the server requires SASL.
type authConn struct {
	net.Conn
	host  string
	state *authState

	wmu sync.Mutex // one frame at a time on the wire

	// Read side: go-zookeeper reads from one goroutine at a time (its
	// handshake, then its receive loop).
	pending    []byte // the rest of the frame being handed to go-zookeeper
	handshaken bool
	dlmu       sync.Mutex
	deadline   time.Time // go-zookeeper's last read deadline

	cmu    sync.Mutex
	calls  map[int32]chan frameReply
	closed bool
}

// frameReply is the server's reply to a request of our own.
type frameReply struct {
	header jute.ReplyHeader
	body   []byte
	err    error
}

// Own xids: below every reserved xid of the protocol (−1 to −8) and never
// reached by go-zookeeper, whose xids count up from 1.
const (
	ownXidFirst = -1_000_000
	ownXidLast  = -1_999_999
)

func isOwnXid(xid int32) bool { return xid <= ownXidFirst && xid >= ownXidLast }

// authDialer wraps d so that each connection it makes is an authConn
// sharing state.
func authDialer(d zk.Dialer, state *authState) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c, err := d(network, addr, timeout)
		if err != nil {
			return nil, err
		}
		host, _, splitErr := net.SplitHostPort(addr)
		if splitErr != nil {
			host = addr
		}
		return &authConn{Conn: c, host: host, state: state, calls: map[int32]chan frameReply{}}, nil
	}
}

// Write sends one frame of go-zookeeper's.
func (c *authConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.Conn.Write(p)
}

// SetReadDeadline remembers go-zookeeper's deadline, to restore it after an
// exchange that set its own.
func (c *authConn) SetReadDeadline(t time.Time) error {
	c.dlmu.Lock()
	c.deadline = t
	c.dlmu.Unlock()
	return c.Conn.SetReadDeadline(t)
}

// SetDeadline is SetReadDeadline and SetWriteDeadline.
func (c *authConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.Conn.SetWriteDeadline(t)
}

// Read hands go-zookeeper the server's frames, its own only.
func (c *authConn) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		f, err := c.nextFrame()
		if err != nil {
			return 0, err
		}
		c.pending = f
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// Close fails the requests of our own still waiting.
func (c *authConn) Close() error {
	c.cmu.Lock()
	c.closed = true
	for xid, ch := range c.calls {
		ch <- frameReply{err: errConnClosed}
		delete(c.calls, xid)
	}
	c.cmu.Unlock()
	c.state.gone(c)
	return c.Conn.Close()
}

var errConnClosed = errors.New("the connection closed before the server answered")

// nextFrame reads the next frame for go-zookeeper, length prefix
// included, authenticating after the connect response and taking out
// the replies to our own requests.
func (c *authConn) nextFrame() ([]byte, error) {
	for {
		body, err := jute.ReadFrame(c.Conn, jute.MaxFrame)
		if err != nil {
			return nil, err
		}
		if !c.handshaken {
			c.handshaken = true
			if err := c.handshake(body); err != nil {
				return nil, err
			}
			return framed(body), nil
		}
		if len(body) >= 16 {
			h := jute.ReadReplyHeader(jute.NewReader(body[:16]))
			if h.Err == jute.ErrSessionClosedRequireSASL {
				c.state.sawRequired()
			}
			if isOwnXid(h.Xid) {
				c.deliver(h, body[16:])
				continue
			}
		}
		return framed(body), nil
	}
}

func framed(body []byte) []byte {
	f := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(f, uint32(len(body)))
	copy(f[4:], body)
	return f
}

// handshake authenticates the connection when the connect response opens
// a session and a mechanism is configured; a connect response for an
// expired session goes to go-zookeeper as it is.
func (c *authConn) handshake(body []byte) error {
	r := jute.NewReader(body)
	resp := jute.ReadConnectResponse(r)
	if r.Err() != nil || resp.SessionID == 0 {
		c.state.ready(c)
		return nil
	}
	if c.state.mechanism == nil {
		c.state.ready(c)
		return nil
	}
	c.state.exchanging(c.host)
	err := c.authenticate()
	c.state.exchanging("")
	if err != nil {
		c.state.failed(err)
		return err
	}
	c.state.ready(c)
	return nil
}

// deliver hands a reply to the request of our own that waits for it; a
// reply nobody waits for any more is dropped.
func (c *authConn) deliver(h jute.ReplyHeader, body []byte) {
	c.cmu.Lock()
	ch, ok := c.calls[h.Xid]
	delete(c.calls, h.Xid)
	c.cmu.Unlock()
	if ok {
		ch <- frameReply{header: h, body: append([]byte(nil), body...)}
	}
}

// send writes a request of our own and returns where its reply will come.
func (c *authConn) send(op int32, body []byte) (chan frameReply, error) {
	xid := c.state.nextXid()
	ch := make(chan frameReply, 1)
	c.cmu.Lock()
	if c.closed {
		c.cmu.Unlock()
		return nil, errConnClosed
	}
	c.calls[xid] = ch
	c.cmu.Unlock()
	var w jute.Writer
	jute.RequestHeader{Xid: xid, OpCode: op}.Write(&w)
	c.wmu.Lock()
	err := jute.WriteFrame(c.Conn, append(w.Bytes(), body...))
	c.wmu.Unlock()
	if err != nil {
		c.cmu.Lock()
		delete(c.calls, xid)
		c.cmu.Unlock()
		return nil, err
	}
	return ch, nil
}

// mechanismFactory makes a SASL mechanism for one connection to host.
type mechanismFactory = func(host string) (sasl.Mechanism, error)

// describe names a reply's error code for an error message.
func describe(code int32) string {
	return fmt.Sprintf("%s (%d)", jute.ErrorName(code), code)
}

// AuthDialer returns a go-zookeeper dialer (zk.WithDialer) whose
// connections, made by base (nil: plain TCP), authenticate with the SASL
// credential among auth, if any, each exchange bounded by timeout, as
// Dial's own do: for a go-zookeeper connection made outside zkwatch that
// must reach a server that requires SASL.
func AuthDialer(base zk.Dialer, auth []Auth, timeout time.Duration) (zk.Dialer, error) {
	state, err := newDialAuth(auth, timeout)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = net.DialTimeout
	}
	return authDialer(base, state), nil
}

// authSessionDialer is the dialer of a session of zklocks' own beside
// go-zookeeper's (the persistent watch's): the options' TCP or TLS, each
// connection authenticated by the options' SASL credential, if any.
func authSessionDialer(opt Options, timeout time.Duration) (zk.Dialer, error) {
	state, err := newDialAuth(opt.Auth, timeout)
	if err != nil {
		return nil, err
	}
	return authDialer(sessionDialer(opt), state), nil
}
