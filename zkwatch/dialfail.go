package zkwatch

import (
	"errors"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-zookeeper/zk"
)

// ErrRefused: every server of the target refused the connection, more
// than once each: nothing listens there. Dial gives up at once rather than
// wait out its context; the error also matches ErrUnreachable.
var ErrRefused = errors.New("connection refused")

// refusedRounds is how many times in a row every server must refuse before
// Dial gives up: go-zookeeper waits a second between two rounds of the
// servers, so a server restarting in that second still gets its chance.
const refusedRounds = 2

// refusals watches the connection attempts of one Dial and says when
// every address tried has refused refusedRounds times in a row. The
// addresses are those go-zookeeper dials (a host name's every address),
// known as they come: it tries each in turn before any again.
type refusals struct {
	mu     sync.Mutex
	inRow  map[string]int
	order  []string
	all    chan struct{}
	closed bool
}

func newRefusals() *refusals { return &refusals{inRow: map[string]int{}, all: make(chan struct{})} }

// dialer wraps d to count its refusals.
func (r *refusals) dialer(d zk.Dialer) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c, err := d(network, addr, timeout)
		r.record(addr, errors.Is(err, syscall.ECONNREFUSED))
		return c, err
	}
}

func (r *refusals) record(addr string, refused bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seen := r.inRow[addr]; !seen {
		r.order = append(r.order, addr)
	}
	if !refused {
		r.inRow[addr] = 0
		return
	}
	r.inRow[addr]++
	for _, a := range r.order {
		if r.inRow[a] < refusedRounds {
			return
		}
	}
	if !r.closed {
		r.closed = true
		close(r.all)
	}
}

// addrs returns the addresses that refused, in the order first tried.
func (r *refusals) addrs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.order)
}

// dialFailure turns go-zookeeper's last log line before a Dial gave up
// into what happened, for people. go-zookeeper logs any failure of the
// session handshake as "authentication failed: …", though no credential is
// involved there (credentials are sent after it, by addAuth); a handshake
// that ends in EOF or a reset is a server that hung up on the client.
func dialFailure(line string, tls bool) string {
	rest, handshake := strings.CutPrefix(line, "authentication failed: ")
	switch {
	case line == "":
		return "no server answered"
	case !handshake:
		return line
	case rest == "EOF" || strings.Contains(rest, "connection reset by peer") || strings.Contains(rest, "broken pipe"):
		why := "the server closed the connection before giving a session (" + rest + "): not a ZooKeeper client port, "
		if tls {
			why += "a port that does not speak TLS, "
		} else {
			why += "a TLS-only port spoken to in plain text, "
		}
		return why + "a server that is not serving (no quorum), or too many connections from this host"
	}
	return "the session handshake failed (" + rest + "); this is not about credentials, which are sent after it"
}
