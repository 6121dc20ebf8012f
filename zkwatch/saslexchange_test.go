package zkwatch

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/loopback"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// fakeSASLPassword is the password the fake servers' clients give: it
// must show in no error and no log line.
const fakeSASLPassword = "F4ke-Secret-pw"

// fakeSASLServer answers a connect request with a session, then hands
// each SASL request's token to answer, which writes what it likes.
func fakeSASLServer(t *testing.T, answer func(c net.Conn, round int, xid int32)) string {
	return loopback.Serve(t, func(c net.Conn) {
		if _, err := jute.ReadFrame(c, jute.MaxFrame); err != nil {
			return
		}
		var w jute.Writer
		w.Int(0)       // protocol version
		w.Int(10000)   // session timeout
		w.Long(0x5a51) // session id
		w.Buffer(make([]byte, 16))
		w.Bool(false)
		if jute.WriteFrame(c, w.Bytes()) != nil {
			return
		}
		for round := 0; ; round++ {
			req, err := jute.ReadFrame(c, jute.MaxFrame)
			if err != nil || len(req) < 8 {
				return
			}
			answer(c, round, int32(binary.BigEndian.Uint32(req)))
		}
	})
}

// reply writes a reply header and, unless token is nil, a SASL token.
func reply(c net.Conn, xid, code int32, token []byte, nullToken bool) {
	var w jute.Writer
	w.Int(xid)
	w.Long(0)
	w.Int(code)
	if token != nil || nullToken {
		w.Buffer(token)
	}
	jute.WriteFrame(c, w.Bytes())
}

// TestSASLAgainstBadServers dials servers that answer the SASL request
// wrongly or never: each gives a clear SASL error, not a panic, not
// "unreachable", and never the password.
func TestSASLAgainstBadServers(t *testing.T) {
	challenge := []byte(`realm="zk-sasl-md5",nonce="bm9uY2U",qop="auth",charset=utf-8,algorithm=md5-sess`)
	for _, tc := range []struct {
		name   string
		answer func(c net.Conn, round int, xid int32)
		want   error
		says   string
	}{
		{"garbage frame", func(c net.Conn, _ int, _ int32) { c.Write([]byte{0, 0, 0, 3, 0xff, 0xfe, 0xfd}) },
			ErrSASLFailed, "not a zookeeper reply"},
		{"impossible length", func(c net.Conn, _ int, _ int32) { c.Write([]byte{0xff, 0xff, 0xff, 0xff}) },
			ErrSASLFailed, "impossible length"},
		{"no token", func(c net.Conn, _ int, xid int32) { reply(c, xid, 0, nil, false) },
			ErrSASLFailed, "holds no sasl token"},
		{"no sasl on the server", func(c net.Conn, _ int, xid int32) { reply(c, xid, 0, nil, true) },
			ErrSASLFailed, "sent no challenge"},
		{"garbage challenge", func(c net.Conn, _ int, xid int32) { reply(c, xid, 0, []byte{0, 1, 2, '"'}, false) },
			ErrSASLFailed, "not a digest-md5 challenge"},
		{"wrong rspauth", func(c net.Conn, round int, xid int32) {
			if round == 0 {
				reply(c, xid, 0, challenge, false)
				return
			}
			reply(c, xid, 0, []byte("rspauth=0123456789abcdef0123456789abcdef"), false)
		}, ErrSASLFailed, "did not prove it knows the password"},
		{"refused", func(c net.Conn, _ int, xid int32) { reply(c, xid, jute.ErrAuthFailed, nil, true) },
			ErrSASLRejected, "wrong password or unknown user"},
		{"never", func(c net.Conn, _ int, _ int32) { c.Read(make([]byte, 1)) },
			ErrSASLFailed, "has not answered the sasl request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := fakeSASLServer(t, tc.answer)
			log := &bufLogger{}
			ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
			defer cancel()
			c, err := Dial(ctx, Options{Target: Target{Servers: []string{addr}}, Logger: log,
				Auth: []Auth{SASLDigestAuth("ops", fakeSASLPassword)}})
			if err == nil {
				c.Close()
				t.Fatal("dial succeeded")
			}
			if !errors.Is(err, tc.want) || errors.Is(err, ErrUnreachable) {
				t.Fatalf("err = %v; want %v, not unreachable", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v; want it to say %q", err, tc.says)
			}
			for _, out := range []string{err.Error(), log.String()} {
				if strings.Contains(out, fakeSASLPassword) {
					t.Fatalf("the password shows: %s", out)
				}
			}
		})
	}
}

// bufLogger collects go-zookeeper's log lines.
type bufLogger struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *bufLogger) Printf(format string, args ...any) {
	l.mu.Lock()
	fmt.Fprintf(&l.b, format+"\n", args...)
	l.mu.Unlock()
}

func (l *bufLogger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
