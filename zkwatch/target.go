package zkwatch

import (
	"fmt"
	"net"
	"strconv"
	"strings"
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
