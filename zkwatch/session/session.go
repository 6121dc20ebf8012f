// Package session is a ZooKeeper session of zklocks' own, beside go-zookeeper's, for the requests
// go-zookeeper does not send (addWatch, removeWatches). It holds no
// ephemeral node and reads nothing: it connects, adds the credentials of
// the watcher's session, sends one request at a time, pings, and hands
// every notification to a function. A connection lost ends it; the caller
// dials again, resuming the session when the server still has it.
//
// A leaf: it imports nothing of zklocks but ZooKeeper's record encoding
// (zkwatch/jute). Its errors say zkwatch, whose session it is.
package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// Errors of the session of zklocks' own.
var (
	// ErrClosed: the connection ended (the server closed it, or it
	// failed) before the answer came.
	ErrClosed = errors.New("zkwatch: connection closed")
	// ErrExpired: the server no longer has the session to resume.
	ErrExpired = errors.New("zkwatch: session expired")
)

// ReplyError is a request's answer with an error code.
type ReplyError struct {
	// Op names the request; Code is ZooKeeper's error code.
	Op   string
	Code int32
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("zkwatch: %s answered %s", e.Op, jute.ErrorName(e.Code))
}

// Credential is one credential added to the session (addAuth): a scheme
// and its secret, such as digest and "user:password". SASL is the
// dialer's, before the session.
type Credential struct {
	Scheme string
	Secret []byte
}

// Identity is what resumes a session on a new connection; the zero
// Identity asks for a new session.
type Identity struct {
	id       int64
	passwd   []byte
	lastZxid int64
}

// Session is one connection of the session of zklocks' own.
type Session struct {
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
	ident   Identity
	xid     int32
	pending map[int32]chan jute.ReplyHeader
	err     error         // why the connection ended
	done    chan struct{} // closed when it ends
}

// Dial connects to server through dial and opens a session (or resumes
// resume's, when not zero), adds creds, and starts reading. notify gets every
// notification, on the reading goroutine: it must not block.
func Dial(ctx context.Context, dial func(network, address string, timeout time.Duration) (net.Conn, error), server string, timeout time.Duration, resume Identity, creds []Credential, notify func(jute.WatcherEvent)) (*Session, error) {
	connectTimeout := max(time.Second, timeout/3)
	if dl, ok := ctx.Deadline(); ok {
		connectTimeout = min(connectTimeout, time.Until(dl))
	}
	c, err := dial("tcp", server, connectTimeout)
	if err != nil {
		return nil, err
	}
	s := &Session{conn: c, server: server, onNotify: notify, pending: map[int32]chan jute.ReplyHeader{}, done: make(chan struct{})}
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
		return nil, ErrExpired
	}
	c.SetDeadline(time.Time{})
	s.in = bufio.NewReaderSize(c, rawReadBuffer)
	s.timeout = time.Duration(resp.TimeoutMs) * time.Millisecond
	s.ident = Identity{id: resp.SessionID, passwd: resp.Passwd, lastZxid: resume.lastZxid}
	go s.read()
	go s.ping()
	for _, a := range creds {
		var aw jute.Writer
		jute.RequestHeader{Xid: jute.XidAuth, OpCode: jute.OpAuth}.Write(&aw)
		jute.AuthPacket{Scheme: a.Scheme, Auth: a.Secret}.Write(&aw)
		if err := s.roundTrip(ctx, jute.XidAuth, aw.Bytes(), "auth "+a.Scheme); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Identity is what resumes the session on a later connection.
func (s *Session) Identity() Identity {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ident
}

// Done is closed when the connection has ended; Err then says why.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err is why the connection ended, nil while it lasts.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Request sends one request (op with its body) and waits for its answer;
// an answer with an error code is a *ReplyError.
func (s *Session) Request(ctx context.Context, op int32, name string, body func(*jute.Writer)) error {
	s.mu.Lock()
	s.xid++
	xid := s.xid
	s.mu.Unlock()
	var w jute.Writer
	jute.RequestHeader{Xid: xid, OpCode: op}.Write(&w)
	body(&w)
	return s.roundTrip(ctx, xid, w.Bytes(), name)
}

// AddWatch sets a watch of mode (jute.AddWatchPersistent or
// jute.AddWatchPersistentRecursive) on path (ZooKeeper 3.6+); its
// notifications go to Dial's notify.
func (s *Session) AddWatch(ctx context.Context, path string, mode int32) error {
	return s.Request(ctx, jute.OpAddWatch, "addWatch", func(w *jute.Writer) {
		jute.AddWatchRequest{Path: path, Mode: mode}.Write(w)
	})
}

// RemoveWatches removes the session's watches of type typ (a
// jute.Watcher… constant) on path.
func (s *Session) RemoveWatches(ctx context.Context, path string, typ int32) error {
	return s.Request(ctx, jute.OpRemoveWatches, "removeWatches", func(w *jute.Writer) {
		jute.RemoveWatchesRequest{Path: path, Type: typ}.Write(w)
	})
}

func (s *Session) roundTrip(ctx context.Context, xid int32, frame []byte, name string) error {
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
		return fmt.Errorf("zkwatch: %s: %w", name, ErrClosed)
	}
	select {
	case h := <-ch:
		if h.Err != jute.ErrOK {
			return &ReplyError{Op: name, Code: h.Err}
		}
		return nil
	case <-s.done:
		return fmt.Errorf("zkwatch: %s: %w", name, ErrClosed)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (s *Session) write(frame []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.conn.SetWriteDeadline(time.Now().Add(s.timeout))
	return jute.WriteFrame(s.conn, frame)
}

// fail ends the connection for err, once.
func (s *Session) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = err
	s.conn.Close()
	close(s.done)
}

// Close ends the connection without closing the session.
func (s *Session) Close() { s.fail(ErrClosed) }

// CloseSession ends the session on the server (its watches go with it)
// and the connection, waiting for the answer until ctx ends.
func (s *Session) CloseSession(ctx context.Context) error {
	err := s.Request(ctx, jute.OpCloseSession, "closeSession", func(*jute.Writer) {})
	s.Close()
	return err
}
