package zkwatch

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// readReply reads a member's reply captured byte for byte from ZooKeeper
// 3.8.0 (Debian). The captures belong to the package that parses them,
// words; the enrichment's tests feed the same bytes to a fake member.
func readReply(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("words", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakeFLWServer accepts connections on loopback and hands each to serve.
func fakeFLWServer(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveEach(t, l, serve)
	return l.Addr().String()
}

// serveEach hands each connection l accepts to serve, closing it after,
// until the test ends and l with it.
func serveEach(t *testing.T, l net.Listener, serve func(c net.Conn)) {
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
