package zkwatch

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestDialFailure(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		tls        bool
		want       []string
		not        []string
	}{
		{"nothing logged", "", false, []string{"no server answered"}, nil},
		{"dial error kept", "failed to connect to 10.0.0.1:2181: dial tcp 10.0.0.1:2181: i/o timeout", false,
			[]string{"failed to connect to 10.0.0.1:2181", "i/o timeout"}, nil},
		{"hang-up without TLS", "authentication failed: EOF", false,
			[]string{"the server closed the connection before giving a session (EOF)", "not a ZooKeeper client port", "in plain text"}, []string{"authentication"}},
		{"hang-up with TLS", "authentication failed: EOF", true,
			[]string{"closed the connection", "does not speak TLS"}, []string{"authentication", "in plain text"}},
		{"reset", "authentication failed: read tcp 127.0.0.1:5->127.0.0.1:6: read: connection reset by peer", false,
			[]string{"closed the connection"}, []string{"authentication"}},
		{"other handshake failure", "authentication failed: zk: could not connect to a server", false,
			[]string{"the session handshake failed (zk: could not connect to a server)", "not about credentials"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialFailure(tc.line, tc.tls)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%q says %q", got, n)
				}
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	type try struct {
		addr    string
		refused bool
	}
	for _, tc := range []struct {
		name  string
		tries []try
		want  bool
	}{
		{"one refusal", []try{{"a", true}}, false},
		{"one server twice", []try{{"a", true}, {"a", true}}, true},
		{"two servers, one round", []try{{"a", true}, {"b", true}, {"a", true}}, false},
		{"two servers, two rounds", []try{{"a", true}, {"b", true}, {"a", true}, {"b", true}}, true},
		{"one answers", []try{{"a", true}, {"b", false}, {"a", true}, {"b", true}}, false},
		{"answered, then refused twice", []try{{"a", false}, {"a", true}, {"a", true}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRefusals()
			for _, x := range tc.tries {
				r.record(x.addr, x.refused)
			}
			select {
			case <-r.all:
				if !tc.want {
					t.Error("gave up")
				}
			default:
				if tc.want {
					t.Error("did not give up")
				}
			}
		})
	}
}

// A port nobody listens on: Dial says so at once, as a refusal, rather
// than wait out its minute.
func TestDialRefusedFailsFast(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = Dial(ctx, Options{Target: Target{Servers: []string{addr}}})
	if !errors.Is(err, ErrRefused) || !errors.Is(err, ErrUnreachable) || ctx.Err() != nil {
		t.Fatalf("err %v (context %v), want a refusal before the context ends", err, ctx.Err())
	}
	if !strings.Contains(err.Error(), "connection refused by "+addr) {
		t.Errorf("error %q does not name the refusing address", err)
	}
}

// A port that accepts and hangs up (another service, a TLS-only port) is
// not a credentials problem, and the error must not say it is.
func TestDialHangUpIsNotAuthentication(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = Dial(ctx, Options{Target: Target{Servers: []string{ln.Addr().String()}}})
	if !errors.Is(err, ErrUnreachable) || errors.Is(err, ErrRefused) {
		t.Fatalf("err %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "authentication") || !strings.Contains(msg, "closed the connection") {
		t.Errorf("error %q", msg)
	}
}
