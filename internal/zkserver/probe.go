package zkserver

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"time"
)

// FourLetter sends a four-letter word to addr and returns the whole reply.
// Without a deadline on ctx it gives up after 5 seconds. (zkwatch has the
// full client; this package sits below it.)
func FourLetter(ctx context.Context, addr, word string) (string, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(5 * time.Second)
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return "", err
	}
	if _, err := io.WriteString(conn, word); err != nil {
		return "", err
	}
	b, err := io.ReadAll(conn)
	return string(b), err
}

// Mode asks addr for srvr and returns its "Mode:" (standalone, leader,
// follower, observer), or "" when it does not answer within a second, or
// answers without a mode (not serving yet, or srvr refused).
func Mode(ctx context.Context, addr string) string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	reply, err := FourLetter(ctx, addr, "srvr")
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(reply))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(sc.Text(), "Mode:"); ok {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// anyMode accepts a server that serves at all.
func anyMode(string) bool { return true }

// quorumMode accepts a member that has joined a quorum.
func quorumMode(m string) bool { return m == "leader" || m == "follower" || m == "observer" }
