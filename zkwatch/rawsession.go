package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// A session of zklocks' own, beside go-zookeeper's, for the requests
// go-zookeeper does not send (addWatch, removeWatches). It holds no
// ephemeral node and reads nothing: it connects, adds the credentials of
// the watcher's session, sends one request at a time, pings, and hands
// every notification to a function. A connection lost ends it; the caller
// dials again, resuming the session when the server still has it.

// Errors of the session of zklocks' own.
var (
	// errRawClosed: the connection ended (the server closed it, or it
	// failed) before the answer came.
	errRawClosed = errors.New("zkwatch: connection closed")
	// errRawExpired: the server no longer has the session to resume.
	errRawExpired = errors.New("zkwatch: session expired")
)

// replyError is a request's answer with an error code.
type replyError struct {
	op   string
	code int32
}

func (e *replyError) Error() string {
	return fmt.Sprintf("zkwatch: %s answered %s", e.op, jute.ErrorName(e.code))
}

// sessionDialer is the dialer of a session's connections: plain TCP, or
// TLS with the options' configuration. Dial's go-zookeeper session and the
// session of zklocks' own use the same one.
func sessionDialer(opt Options) zk.Dialer {
	if opt.TLS != nil {
		return tlsDialer(opt.TLS)
	}
	return net.DialTimeout
}

// rawReadBuffer is how much of the connection is read at once; rawNap
// how long notifications that stream in (more than rawStreamRate a second
// over a rawWindow) are left to gather: what it adds to a notification's
// latency in a flood.
const (
	rawReadBuffer = 64 << 10
	rawNap        = 20 * time.Millisecond
	rawStreamRate = 1000
	rawWindow     = 100 * time.Millisecond
)

// streamMeter tells a stream of frames from a few: it counts the frames
// of each window of at least rawWindow and says whether the last came
// at rawStreamRate a second or faster.
type streamMeter struct {
	start  time.Time
	frames int
	fast   bool
}

// streaming ends the window under way if it is rawWindow old at now, and
// reports whether the last window ended was fast.
func (m *streamMeter) streaming(now time.Time) bool {
	if d := now.Sub(m.start); d >= rawWindow {
		m.fast = float64(m.frames) >= rawStreamRate*d.Seconds()
		m.start, m.frames = now, 0
	}
	return m.fast
}

// rawIdentity is what resumes a session on a new connection.
type rawIdentity struct {
	id       int64
	passwd   []byte
	lastZxid int64
}

// rawSession is one connection of the session of zklocks' own.
type rawSession struct {
	conn net.Conn
	// in reads conn buffered: notifications come in bursts, each a frame
	// of its own, and reading them one syscall (and one wake-up) apiece
	// was most of what a flood of them cost.
	in       *bufio.Reader
	server   string
	timeout  time.Duration // negotiated
	onNotify func(jute.WatcherEvent)

	wmu sync.Mutex // one frame written at a time

	mu      sync.Mutex
	ident   rawIdentity
	xid     int32
	pending map[int32]chan jute.ReplyHeader
	err     error         // why the connection ended
	done    chan struct{} // closed when it ends
}

// dialRaw connects to server and opens a session (or resumes resume's,
// when not zero), adds auth, and starts reading. notify gets every
// notification, on the reading goroutine: it must not block.
func dialRaw(ctx context.Context, dial zk.Dialer, server string, timeout time.Duration, resume rawIdentity, auth []Auth, notify func(jute.WatcherEvent)) (*rawSession, error) {
	connectTimeout := max(time.Second, timeout/3)
	if dl, ok := ctx.Deadline(); ok {
		connectTimeout = min(connectTimeout, time.Until(dl))
	}
	c, err := dial("tcp", server, connectTimeout)
	if err != nil {
		return nil, err
	}
	s := &rawSession{conn: c, server: server, onNotify: notify, pending: map[int32]chan jute.ReplyHeader{}, done: make(chan struct{})}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var w jute.Writer
	jute.ConnectRequest{LastZxidSeen: resume.lastZxid, TimeoutMs: int32(timeout / time.Millisecond), SessionID: resume.id, Passwd: resume.passwd}.Write(&w)
	c.SetDeadline(time.Now().Add(connectTimeout))
	if err := jute.WriteFrame(c, w.Bytes()); err != nil {
		c.Close()
		return nil, err
	}
	frame, err := jute.ReadFrame(c, jute.MaxFrame)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("zkwatch: connect to %s: %w", server, err)
	}
	r := jute.NewReader(frame)
	resp := jute.ReadConnectResponse(r)
	if r.Err() != nil {
		c.Close()
		return nil, fmt.Errorf("zkwatch: connect to %s: %w", server, r.Err())
	}
	if resp.TimeoutMs <= 0 || resp.SessionID == 0 {
		c.Close()
		return nil, errRawExpired
	}
	c.SetDeadline(time.Time{})
	s.in = bufio.NewReaderSize(c, rawReadBuffer)
	s.timeout = time.Duration(resp.TimeoutMs) * time.Millisecond
	s.ident = rawIdentity{id: resp.SessionID, passwd: resp.Passwd, lastZxid: resume.lastZxid}
	go s.read()
	go s.ping()
	for _, a := range auth {
		if a.IsSASL() {
			continue // the dialer's connection authenticated by SASL already
		}
		var aw jute.Writer
		jute.RequestHeader{Xid: jute.XidAuth, OpCode: jute.OpAuth}.Write(&aw)
		jute.AuthPacket{Scheme: a.Scheme, Auth: a.Secret}.Write(&aw)
		if err := s.roundTrip(ctx, jute.XidAuth, aw.Bytes(), "auth "+a.Scheme); err != nil {
			s.close()
			return nil, err
		}
	}
	return s, nil
}

// identity is what resumes the session on a later connection.
func (s *rawSession) identity() rawIdentity {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ident
}

// Done is closed when the connection has ended; Err then says why.
func (s *rawSession) Done() <-chan struct{} { return s.done }

// Err is why the connection ended, nil while it lasts.
func (s *rawSession) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// request sends one request (op with its body) and waits for its answer;
// an answer with an error code is a *replyError.
func (s *rawSession) request(ctx context.Context, op int32, name string, body func(*jute.Writer)) error {
	s.mu.Lock()
	s.xid++
	xid := s.xid
	s.mu.Unlock()
	var w jute.Writer
	jute.RequestHeader{Xid: xid, OpCode: op}.Write(&w)
	body(&w)
	return s.roundTrip(ctx, xid, w.Bytes(), name)
}

func (s *rawSession) roundTrip(ctx context.Context, xid int32, frame []byte, name string) error {
	ch := make(chan jute.ReplyHeader, 1)
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return s.err
	}
	s.pending[xid] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, xid)
		s.mu.Unlock()
	}()
	if err := s.write(frame); err != nil {
		s.fail(err)
		return fmt.Errorf("zkwatch: %s: %w", name, errRawClosed)
	}
	select {
	case h := <-ch:
		if h.Err != jute.ErrOK {
			return &replyError{op: name, code: h.Err}
		}
		return nil
	case <-s.done:
		return fmt.Errorf("zkwatch: %s: %w", name, errRawClosed)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (s *rawSession) write(frame []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.conn.SetWriteDeadline(time.Now().Add(s.timeout))
	return jute.WriteFrame(s.conn, frame)
}

// read reads every frame until the connection ends. A server that sends
// nothing, not even a ping's answer, for two thirds of the session's
// timeout is taken as gone, as go-zookeeper does.
func (s *rawSession) read() {
	var meter streamMeter
	for {
		if s.in.Buffered() < 4 {
			// About to wait on the connection, not on what it has sent.
			// While notifications stream in, a nap first lets them
			// gather, so that a flood costs one wake-up and one read per
			// nap rather than per notification; a few, such as a new
			// lock's, are read at once.
			now := time.Now()
			if meter.streaming(now) {
				time.Sleep(rawNap)
			}
			s.conn.SetReadDeadline(now.Add(s.timeout * 2 / 3))
			if _, err := s.in.Peek(4); err != nil {
				s.fail(err)
				return
			}
		}
		meter.frames++
		frame, err := jute.ReadFrame(s.in, jute.MaxFrame)
		if err != nil {
			s.fail(err)
			return
		}
		r := jute.NewReader(frame)
		h := jute.ReadReplyHeader(r)
		if r.Err() != nil {
			s.fail(r.Err())
			return
		}
		if h.Zxid > 0 {
			s.mu.Lock()
			s.ident.lastZxid = max(s.ident.lastZxid, h.Zxid)
			s.mu.Unlock()
		}
		switch h.Xid {
		case jute.XidNotification:
			ev := jute.ReadWatcherEvent(r)
			if r.Err() != nil {
				s.fail(r.Err())
				return
			}
			s.onNotify(ev)
		case jute.XidPing:
		default:
			s.mu.Lock()
			ch := s.pending[h.Xid]
			s.mu.Unlock()
			if ch != nil {
				ch <- h
			}
		}
	}
}

// ping keeps the session alive: a ping every third of its timeout.
func (s *rawSession) ping() {
	tick := time.NewTicker(s.timeout / 3)
	defer tick.Stop()
	var w jute.Writer
	jute.RequestHeader{Xid: jute.XidPing, OpCode: jute.OpPing}.Write(&w)
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		if err := s.write(w.Bytes()); err != nil {
			s.fail(err)
			return
		}
	}
}

// fail ends the connection for err, once.
func (s *rawSession) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = err
	s.conn.Close()
	close(s.done)
}

// close ends the connection without closing the session.
func (s *rawSession) close() { s.fail(errRawClosed) }

// closeSession ends the session on the server (its watches go with it)
// and the connection, waiting for the answer until ctx ends.
func (s *rawSession) closeSession(ctx context.Context) error {
	err := s.request(ctx, jute.OpCloseSession, "closeSession", func(*jute.Writer) {})
	s.close()
	return err
}
