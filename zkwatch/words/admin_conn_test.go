package words

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingAdmin serves an AdminServer's configuration (naming clientPort)
// and connections (one session, session), counting each command.
type countingAdmin struct {
	srv         *httptest.Server
	conf, conns atomic.Int32
}

func newCountingAdmin(t *testing.T, clientPort int, session int64) *countingAdmin {
	t.Helper()
	c := &countingAdmin{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/commands/configuration":
			c.conf.Add(1)
			fmt.Fprintf(w, `{"client_port":%d,"server_id":1,"command":"configuration","error":null}`, clientPort)
		case "/commands/connections":
			c.conns.Add(1)
			fmt.Fprintf(w, `{"connections":[{"remote_socket_address":"/127.0.0.1:40000","session_id":%d}],"secure_connections":[],"command":"connections","error":null}`, session)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *countingAdmin) port() int {
	port, _ := strconv.Atoi(c.srv.URL[strings.LastIndexByte(c.srv.URL, ':')+1:])
	return port
}

// askSession asks member's AdminServer for its connections and returns
// the one session it lists.
func askSession(a *AdminServer, member string) (int64, error) {
	var conns []Connection
	if _, err := AdminStream(context.Background(), a, member, "cons", nil, AdminConnections(&conns)); err != nil {
		return 0, err
	}
	if len(conns) != 1 {
		return 0, fmt.Errorf("%d connections listed", len(conns))
	}
	return conns[0].Session, nil
}

func TestAdminProofHoldsForItsConnection(t *testing.T) {
	fake := newCountingAdmin(t, 2181, 7)
	a := &AdminServer{Port: fake.port()}
	for i := range 3 {
		if s, err := askSession(a, "127.0.0.1:2181"); err != nil || s != 7 {
			t.Fatalf("ask %d: session %d, err %v", i, s, err)
		}
	}
	if fake.conf.Load() != 1 || fake.conns.Load() != 3 {
		t.Fatalf("three asks over one connection: configuration asked %d times, connections %d, want 1 and 3", fake.conf.Load(), fake.conns.Load())
	}

	// The server closes the connection: the next one is proven again.
	fake.srv.CloseClientConnections()
	if s, err := askSession(a, "127.0.0.1:2181"); err != nil || s != 7 {
		t.Fatalf("after the connection closed: session %d, err %v", s, err)
	}
	if fake.conf.Load() != 2 {
		t.Errorf("a new connection: configuration asked %d times in all, want 2", fake.conf.Load())
	}

	// A connection proven to be 2181's is not taken for another member
	// whose AdminServer address is the same.
	if _, err := askSession(a, "127.0.0.1:2182"); !errors.Is(err, ErrAdminElsewhere) {
		t.Errorf("another member over the same AdminServer: err %v, want ErrAdminElsewhere", err)
	}
}

// perConnBalancer forwards each connection it accepts to the next of
// backends in turn, as a TCP load balancer does, and can cut every
// connection it holds.
type perConnBalancer struct {
	ln    net.Listener
	mu    sync.Mutex
	next  int
	conns []net.Conn
}

func newPerConnBalancer(t *testing.T, backends ...string) *perConnBalancer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &perConnBalancer{ln: ln}
	t.Cleanup(func() { ln.Close(); b.cut() })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			b.mu.Lock()
			target := backends[b.next%len(backends)]
			b.next++
			b.mu.Unlock()
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			b.mu.Lock()
			b.conns = append(b.conns, in, out)
			b.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
	return b
}

func (b *perConnBalancer) cut() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.conns {
		c.Close()
	}
	b.conns = nil
}

func TestAdminBehindABalancerNeverTakesAnotherServersAnswer(t *testing.T) {
	own := newCountingAdmin(t, 2181, 7)
	other := newCountingAdmin(t, 2999, 9)
	lb := newPerConnBalancer(t, own.srv.Listener.Addr().String(), other.srv.Listener.Addr().String())
	a := &AdminServer{Port: lb.ln.Addr().(*net.TCPAddr).Port}
	var answered, refused int
	for i := range 8 {
		s, err := askSession(a, "127.0.0.1:2181")
		switch {
		case err == nil && s == 7:
			answered++
		case err == nil:
			t.Fatalf("ask %d: session %d taken for the member's: the other server's answer", i, s)
		case errors.Is(err, ErrAdminElsewhere) || errors.Is(err, errUnprovenConn):
			refused++
		default:
			t.Fatalf("ask %d: %v", i, err)
		}
		lb.cut() // the next ask opens a connection the balancer sends elsewhere
	}
	if answered == 0 || other.conns.Load()+other.conf.Load() == 0 {
		t.Errorf("%d answered, %d refused; the other server was asked %d times: the case was not made", answered, refused, other.conns.Load()+other.conf.Load())
	}
}

func TestAdminProofFirstAfterAnIdleConnection(t *testing.T) {
	fake := newCountingAdmin(t, 2181, 7)
	a := &AdminServer{Port: fake.port()}
	now := time.Now()
	a.proven.now = func() time.Time { return now }
	if s, err := askSession(a, "127.0.0.1:2181"); err != nil || s != 7 {
		t.Fatalf("first ask: session %d, err %v", s, err)
	}
	// Idle past what the AdminServer keeps a connection open for: it
	// closed it, and the command is not asked over a new connection
	// only to be thrown away unread.
	now = now.Add(keptFor + time.Second)
	fake.srv.CloseClientConnections()
	if s, err := askSession(a, "127.0.0.1:2181"); err != nil || s != 7 {
		t.Fatalf("after the idle time: session %d, err %v", s, err)
	}
	if fake.conf.Load() != 2 || fake.conns.Load() != 2 {
		t.Errorf("configuration asked %d times, connections %d; want 2 and 2 (the proof first)", fake.conf.Load(), fake.conns.Load())
	}
}
