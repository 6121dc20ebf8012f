package e2e

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationServeStartupFlood: 2,000 connections from one address
// that never sign in. Those beyond per-source-max-startups are closed as
// they are accepted (no SSH banner, end of file at once), the refusals
// are logged once rather than 1,990 times, a listed key from another
// address signs in meanwhile through OpenSSH's client, and the flood's
// admitted connections are closed after login-grace-time.
func TestIntegrationServeStartupFlood(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	keys := t.TempDir()
	alicePub, _ := serverig.SSHKey(t, keys, "alice")
	r := serverig.Start(t, zks, "/serve", []string{alicePub},
		"--max-startups", "100", "--per-source-max-startups", "10", "--login-grace-time", "20s")
	r.UseKeys(keys, "alice")
	addr := "127.0.0.1:" + strconv.Itoa(r.Port())

	const flood = 2000
	conns := make([]net.Conn, 0, flood)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range flood {
		c, err := net.DialTimeout("tcp", addr, 30*time.Second)
		if err != nil {
			t.Fatalf("dial %d: %v", len(conns), err)
		}
		conns = append(conns, c)
	}
	var held []net.Conn
	refused := 0
	for i, c := range conns {
		// An admitted connection hears the server's version at once; a
		// refused one was closed before a byte was sent.
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		switch {
		case strings.HasPrefix(line, "SSH-2.0-"):
			held = append(held, c)
		case errors.Is(err, io.EOF) || isReset(err):
			refused++
		default:
			t.Fatalf("connection %d: %q, %v", i, line, err)
		}
	}
	if len(held) != 10 || refused != flood-10 {
		t.Fatalf("%d connections admitted and %d refused, want 10 and %d", len(held), refused, flood-10)
	}

	// Another address signs in at once, while the flood's are held.
	args := append([]string{"-o", "BindAddress=127.0.0.2"}, r.SSHArgs("alice", "alice")...)
	out, err := exec.Command("ssh", append(args, "true")...).CombinedOutput()
	if !strings.Contains(string(out), "runs its UI and nothing else") {
		t.Fatalf("alice from 127.0.0.2 during the flood: %v: %s", err, out)
	}
	if n := strings.Count(r.Log(), "from 127.0.0.1 at accept"); n < 1 || n > 2 {
		t.Fatalf("the refusals were logged %d times, want once (and a count at most a minute later):\n%s", n, r.Log())
	}

	// The flood's admitted connections are closed after the grace time.
	for i, c := range held {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		if _, err := io.Copy(io.Discard, c); err != nil && !isReset(err) {
			t.Fatalf("held connection %d: %v", i, err)
		}
	}
	r.WaitLog("not signed in within 20s (login-grace-time)")
}

// isReset reports whether err is a connection reset by the server.
func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "connection reset by peer")
}
