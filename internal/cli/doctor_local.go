package cli

import (
	"context"
	"net"
	"time"
)

// memberLookup bounds the name lookup that tells whether a member is on
// this host.
const memberLookup = 2 * time.Second

// onThisHost reports whether member (host:port) is served from this
// machine: its host is a loopback address or one of this machine's,
// as named or as it resolves. A directory of the path the member's conf
// names is on every host of an ensemble that shares its layout: only a
// member of this host's is this host's directory. One whose name does not
// resolve is not known to be here.
func onThisHost(ctx context.Context, member string) bool {
	host, _, err := net.SplitHostPort(member)
	if err != nil {
		host = member
	}
	if host == "localhost" {
		return true
	}
	ips := []net.IP{net.ParseIP(host)}
	if ips[0] == nil {
		ctx, cancel := context.WithTimeout(ctx, memberLookup)
		defer cancel()
		addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return false
		}
		ips = ips[:0]
		for _, a := range addrs {
			ips = append(ips, a.IP)
		}
	}
	local, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, ip := range ips {
		if ip.IsLoopback() {
			return true
		}
		for _, a := range local {
			if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
				return true
			}
		}
	}
	return false
}
