// Package loopback serves a test's fake TCP peer on loopback: a member
// that answers four-letter words as a capture says, a TLS server that
// hangs up, a member in front of a real server that refuses addWatch
// (RefusingMember), each connection handed to the test's own function.
package loopback

import (
	"net"
	"testing"
)

// Serve listens on a free loopback port, hands each connection to serve
// (closing it after) until the test ends, and returns the address.
func Serve(t testing.TB, serve func(c net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ServeOn(t, l, serve)
	return l.Addr().String()
}

// ServeOn hands each connection l accepts to serve, closing it after,
// until the test ends and l with it.
func ServeOn(t testing.TB, l net.Listener, serve func(c net.Conn)) {
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
}
