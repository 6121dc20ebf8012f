package cli

import (
	"context"
	"net"
	"testing"
)

// A member's data directory is read only on the member's own host: a
// path every host of an ensemble shares is another member's elsewhere.
func TestOnThisHost(t *testing.T) {
	want := map[string]bool{
		"127.0.0.1:2181": true, "localhost:2181": true, "[::1]:2181": true,
		"198.51.100.7:2181": false, "no-such-host.invalid:2181": false,
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
				want[net.JoinHostPort(n.IP.String(), "2181")] = true
				break
			}
		}
	}
	for member, here := range want {
		if got := onThisHost(context.Background(), member); got != here {
			t.Errorf("onThisHost(%q) = %v, want %v", member, got, here)
		}
	}
}
