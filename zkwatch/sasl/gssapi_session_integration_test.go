package sasl_test

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// ioBackstop bounds one request's round trip on the test's own
// connection, a server that stopped answering.
const ioBackstop = 2 * time.Minute

// session is a bare ZooKeeper client connection speaking jute, enough to
// drive a SASL mechanism through the server's exchange (opcode 102) and
// then read and delete nodes as the identity it established.
type session struct {
	t    *testing.T
	conn net.Conn
	xid  int32
	id   int64
}

// dial opens a session on the server at addr.
func dial(t *testing.T, addr string) *session {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, ioBackstop)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &session{t: t, conn: conn}
	var w jute.Writer
	jute.ConnectRequest{TimeoutMs: 10000}.Write(&w)
	resp := s.roundTrip(w.Bytes())
	c := jute.ReadConnectResponse(jute.NewReader(resp))
	if c.SessionID == 0 {
		t.Fatalf("the server opened no session")
	}
	s.id = c.SessionID
	return s
}

// roundTrip sends one frame and reads the next.
func (s *session) roundTrip(record []byte) []byte {
	s.t.Helper()
	s.conn.SetDeadline(time.Now().Add(ioBackstop))
	if err := jute.WriteFrame(s.conn, record); err != nil {
		s.t.Fatal(err)
	}
	resp, err := jute.ReadFrame(s.conn, jute.MaxFrame)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp
}

// call sends request op with body and returns the reply's error code and
// body reader.
func (s *session) call(op int32, body func(w *jute.Writer)) (int32, *jute.Reader) {
	s.t.Helper()
	s.xid++
	var w jute.Writer
	jute.RequestHeader{Xid: s.xid, OpCode: op}.Write(&w)
	if body != nil {
		body(&w)
	}
	r := jute.NewReader(s.roundTrip(w.Bytes()))
	h := jute.ReadReplyHeader(r)
	if h.Xid != s.xid {
		s.t.Fatalf("reply to xid %d, want %d", h.Xid, s.xid)
	}
	return h.Err, r
}

// authenticate runs m through the server's SASL exchange as ZooKeeper's
// Java client does: m's first token, then each of the server's answers to
// m while it is not complete. It returns the error code of the reply that
// ended the exchange, or the mechanism's error.
func (s *session) authenticate(m sasl.Mechanism) (int32, error) {
	token, err := m.Step(nil)
	if err != nil {
		return 0, err
	}
	for {
		code, r := s.call(jute.OpSASL, func(w *jute.Writer) { w.Buffer(token) })
		if code != jute.ErrOK {
			return code, nil
		}
		answer := r.Buffer()
		if m.Complete() {
			return code, nil
		}
		if token, err = m.Step(answer); err != nil {
			return 0, err
		}
	}
}

// whoAmI returns the session's identities, "scheme:user" each.
func (s *session) whoAmI() []string {
	s.t.Helper()
	code, r := s.call(jute.OpWhoAmI, nil)
	if code != jute.ErrOK {
		s.t.Fatalf("whoAmI: %s", jute.ErrorName(code))
	}
	var ids []string
	for _, c := range jute.ReadClientInfos(r) {
		ids = append(ids, c.AuthScheme+":"+c.User)
	}
	return ids
}

// children lists path's children.
func (s *session) children(path string) ([]string, int32) {
	s.t.Helper()
	code, r := s.call(jute.OpGetChildren, func(w *jute.Writer) { w.String(path); w.Bool(false) })
	if code != jute.ErrOK {
		return nil, code
	}
	n := r.Count(4)
	names := make([]string, 0, n)
	for i := 0; i < n; i++ {
		names = append(names, r.String())
	}
	return names, code
}

// stat is the part of a node's Stat the test reads.
type stat struct {
	version        int32
	ephemeralOwner int64
}

// get reads path's data and stat.
func (s *session) get(path string) ([]byte, stat, int32) {
	s.t.Helper()
	code, r := s.call(jute.OpGetData, func(w *jute.Writer) { w.String(path); w.Bool(false) })
	if code != jute.ErrOK {
		return nil, stat{}, code
	}
	data := r.Buffer()
	r.Long() // czxid
	r.Long() // mzxid
	r.Long() // ctime
	r.Long() // mtime
	st := stat{version: r.Int()}
	r.Int() // cversion
	r.Int() // aversion
	st.ephemeralOwner = r.Long()
	if r.Err() != nil {
		s.t.Fatalf("getData %s: %v", path, r.Err())
	}
	return data, st, code
}

// delete deletes path at version.
func (s *session) delete(path string, version int32) int32 {
	s.t.Helper()
	code, _ := s.call(jute.OpDelete, func(w *jute.Writer) { w.String(path); w.Int(version) })
	return code
}

// String names the session for failures.
func (s *session) String() string { return fmt.Sprintf("session 0x%x", s.id) }
