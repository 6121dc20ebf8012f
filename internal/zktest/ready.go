package zktest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// fourLetter sends a four-letter word to addr and returns the whole reply.
// The public client is zkwatch.FourLetter; this package cannot import it.
func fourLetter(ctx context.Context, addr, word string) (string, error) {
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

// mode returns the value of the "Mode:" line of a srvr reply, or "" when
// there is none (the server is not serving yet, or refused the word).
func mode(srvr string) string {
	sc := bufio.NewScanner(strings.NewReader(srvr))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(sc.Text(), "Mode:"); ok {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// probe asks addr for its mode, giving up after a second.
func probe(ctx context.Context, addr string) string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	reply, err := fourLetter(ctx, addr, "srvr")
	if err != nil {
		return ""
	}
	return mode(reply)
}

// errExited reports a JVM that ended while we waited for it to serve.
var errExited = errors.New("zktest: java exited")

// waitMode polls srvr on addr until ready accepts its mode, p exits, or ctx
// ends. It returns the last mode seen.
func waitMode(ctx context.Context, p *process, addr string, ready func(mode string) bool) (string, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		if m := probe(ctx, addr); m != "" {
			last = m
			if ready(m) {
				return m, nil
			}
		}
		select {
		case <-p.done:
			return last, fmt.Errorf("%w: %v", errExited, p.err)
		case <-ctx.Done():
			if last == "" {
				last = "none"
			}
			return last, fmt.Errorf("zktest: %s not ready (last mode %s): %w", addr, last, ctx.Err())
		case <-tick.C:
		}
	}
}

// anyMode accepts a server that serves at all.
func anyMode(string) bool { return true }

// quorumMode accepts a member that has joined a quorum.
func quorumMode(m string) bool { return m == "leader" || m == "follower" || m == "observer" }
