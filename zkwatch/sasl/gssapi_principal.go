package sasl

import (
	"context"
	"net"
	"slices"
	"strings"
)

// DefaultServiceName is the first component of ZooKeeper's service
// principal when none is configured, as the Java client's
// zookeeper.sasl.client.username defaults to.
const DefaultServiceName = "zookeeper"

// hostResolver is the part of *net.Resolver the canonical host name needs.
type hostResolver interface {
	LookupHost(ctx context.Context, host string) ([]string, error)
	LookupAddr(ctx context.Context, addr string) ([]string, error)
}

// serviceHost returns the host part of the service principal for a
// connection to host, by ZooKeeper's Java client's rule
// (SaslServerPrincipal): the host as given in the connect string, or the
// name its address resolves back to when that address is a literal;
// then, when canonicalize is on (zookeeper.sasl.client.canonicalize.hostname,
// true by default), the canonical name of the address the host resolves
// to, unless that name is only the address again. Java resolves a host to
// its first address and takes a reverse name only when it resolves forward
// to the same address (InetAddress.getCanonicalHostName); so does this.
func serviceHost(ctx context.Context, r hostResolver, host string, canonicalize bool) string {
	name := host
	ip := net.ParseIP(host)
	if ip != nil {
		// A literal address has no name of its own: Java's getHostName
		// looks one up.
		name = reverseName(ctx, r, host)
	}
	if !canonicalize {
		return name
	}
	addr := host
	if ip == nil {
		addrs, err := r.LookupHost(ctx, host)
		if err != nil || len(addrs) == 0 {
			return name
		}
		addr = addrs[0]
	}
	if canon := reverseName(ctx, r, addr); canon != addr {
		return canon
	}
	return name
}

// reverseName is Java's InetAddress.getCanonicalHostName of the literal
// address addr: the first name the address resolves back to, when that
// name resolves forward to addr; addr itself otherwise.
func reverseName(ctx context.Context, r hostResolver, addr string) string {
	names, err := r.LookupAddr(ctx, addr)
	if err != nil || len(names) == 0 {
		return addr
	}
	name := strings.TrimSuffix(names[0], ".")
	forward, err := r.LookupHost(ctx, name)
	if err != nil || !slices.Contains(forward, addr) {
		return addr
	}
	return name
}
