package zkwatch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-zookeeper/zk"
)

// DefaultPort is ZooKeeper's client port, used when a server names none.
const DefaultPort = 2181

// Target is where to connect: a ZooKeeper connect string's servers and
// chroot.
type Target struct {
	// Servers are host:port pairs.
	Servers []string
	// Chroot is the path every other path is relative to, or empty.
	Chroot string
}

// ParseConnectString reads "h1:2181,h2:2181/chroot". A server without a port
// gets DefaultPort; the chroot, when given, must be an absolute path.
func ParseConnectString(s string) (Target, error) {
	var t Target
	hosts := strings.TrimSpace(s)
	if i := strings.IndexByte(hosts, '/'); i >= 0 {
		hosts, t.Chroot = hosts[:i], hosts[i:]
		if err := ValidatePath(t.Chroot); err != nil {
			return Target{}, fmt.Errorf("connect string %q: chroot: %w", s, err)
		}
		if t.Chroot == "/" {
			t.Chroot = ""
		}
	}
	if hosts == "" {
		return Target{}, fmt.Errorf("connect string %q names no server", s)
	}
	for _, h := range strings.Split(hosts, ",") {
		h = strings.TrimSpace(h)
		host, port, err := net.SplitHostPort(h)
		if err != nil {
			if strings.Contains(err.Error(), "missing port") {
				host, port = strings.Trim(h, "[]"), strconv.Itoa(DefaultPort)
			} else {
				return Target{}, fmt.Errorf("connect string %q: server %q: %v", s, h, err)
			}
		}
		n, err := strconv.Atoi(port)
		if host == "" || err != nil || n < 1 || n > 65535 {
			return Target{}, fmt.Errorf("connect string %q: server %q needs a host and a port from 1 to 65535", s, h)
		}
		t.Servers = append(t.Servers, net.JoinHostPort(host, port))
	}
	return t, nil
}

// String returns the connect string.
func (t Target) String() string { return strings.Join(t.Servers, ",") + t.Chroot }

// ValidatePath checks that p is a path ZooKeeper accepts.
func ValidatePath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case p[0] != '/':
		return fmt.Errorf("path %q must start with /", p)
	case p != "/" && strings.HasSuffix(p, "/"):
		return fmt.Errorf("path %q must not end with /", p)
	case strings.Contains(p, "//"):
		return fmt.Errorf("path %q has an empty element", p)
	}
	for _, el := range strings.Split(p[1:], "/") {
		if el == "." || el == ".." {
			return fmt.Errorf("path %q has a relative element %q", p, el)
		}
	}
	if strings.ContainsRune(p, 0) {
		return fmt.Errorf("path %q contains a NUL byte", p)
	}
	return nil
}

// minHandshakeTimeout bounds a TLS handshake from below. go-zookeeper gives
// its dialer one second, which a JVM doing its first handshakes on a busy
// machine can miss; a server that cannot speak TLS fails sooner anyway.
const minHandshakeTimeout = 5 * time.Second

// TLSFiles names the PEM files of a TLS connection to a secure client port
// (ZooKeeper's secureClientPort).
type TLSFiles struct {
	// CA holds the certificates that sign the servers' certificates; empty
	// means the system's roots.
	CA string
	// Cert and Key are the client's certificate chain and private key, for
	// servers that ask for one (ssl.clientAuth); both or neither.
	Cert, Key string
	// ServerName is what the servers' certificates must name; empty means
	// each server's host as written in the connect string, so that
	// 127.0.0.1:2281 must be an IP address in its certificate.
	ServerName string
}

// Enabled reports whether any field is set, that is, whether to use TLS.
func (f TLSFiles) Enabled() bool { return f != TLSFiles{} }

// Config reads the files and returns the TLS configuration to put in
// [Options.TLS]. Errors name the file, never its content.
func (f TLSFiles) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName}
	if f.CA != "" {
		pem, err := os.ReadFile(f.CA)
		if err != nil {
			return nil, fmt.Errorf("tls ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca %s: no PEM certificate found", f.CA)
		}
		cfg.RootCAs = pool
	}
	switch {
	case f.Cert != "" && f.Key != "":
		cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("tls client certificate %s with key %s: %w", f.Cert, f.Key, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case f.Cert != "":
		return nil, fmt.Errorf("tls client certificate %s needs its key", f.Cert)
	case f.Key != "":
		return nil, fmt.Errorf("tls client key %s needs its certificate", f.Key)
	}
	return cfg, nil
}

// tlsDialer returns a go-zookeeper dialer that opens TLS connections with
// cfg. Each connection verifies the server it dials: when cfg names no
// server, the host part of the address is the name to verify, which for an
// IP address means an IP SAN of the certificate (and no SNI is sent).
func tlsDialer(cfg *tls.Config) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c := cfg.Clone()
		if c.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			c.ServerName = host
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(timeout, minHandshakeTimeout))
		defer cancel()
		d := &tls.Dialer{NetDialer: &net.Dialer{Timeout: timeout}, Config: c}
		return d.DialContext(ctx, network, addr)
	}
}

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

// sessionDialer is the dialer of a session's connections: plain TCP, or
// TLS with the options' configuration. Dial's go-zookeeper session and the
// session of zklocks' own use the same one.
func sessionDialer(opt Options) zk.Dialer {
	if opt.TLS != nil {
		return tlsDialer(opt.TLS)
	}
	return net.DialTimeout
}

// handshakeDialer wraps d so that a session handshake the server does not
// answer is given up after bound, where go-zookeeper waits ten times two
// thirds of the session timeout (66 s for 10 s): a server that accepts
// connections while it still loads its data swallows the connect request,
// and the session would stay without a server for a minute after it came
// back. ZooKeeper's Java client bounds the handshake by the session
// timeout over the number of servers; so does this.
func handshakeDialer(d zk.Dialer, bound time.Duration) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c, err := d(network, addr, timeout)
		if err != nil {
			return nil, err
		}
		return &handshakeConn{Conn: c, bound: bound}, nil
	}
}

// handshakeConn holds every deadline set before the handshake's answer
// within bound of its setting. go-zookeeper clears the read deadline once
// the connect response is read: from then on its deadlines pass as set,
// since its pings keep a live connection within them.
type handshakeConn struct {
	net.Conn
	bound time.Duration
	mu    sync.Mutex
	done  bool
}

// bounded is t held within bound of now while the handshake lasts.
func (c *handshakeConn) bounded(t time.Time) time.Time {
	if c.done || t.IsZero() {
		return t
	}
	if limit := time.Now().Add(c.bound); t.After(limit) {
		return limit
	}
	return t
}

// SetReadDeadline bounds the deadline during the handshake, which ends
// when go-zookeeper clears it.
func (c *handshakeConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	t = c.bounded(t)
	c.done = c.done || t.IsZero()
	c.mu.Unlock()
	return c.Conn.SetReadDeadline(t)
}

// SetWriteDeadline bounds the deadline during the handshake.
func (c *handshakeConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	t = c.bounded(t)
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

// SetDeadline bounds the deadline during the handshake.
func (c *handshakeConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}
