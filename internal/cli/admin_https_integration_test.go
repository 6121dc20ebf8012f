package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationAdminHTTPS: an AdminServer that speaks HTTPS only
// (admin.forceHttps, a self-signed keystore) answers the same as over HTTP
// once its certificate is trusted, or not checked when asked not to; an
// untrusted certificate, or plain HTTP, is said plainly with the fix.
func TestIntegrationAdminHTTPS(t *testing.T) {
	https, ca := zktest.AdminHTTPS(t)
	srv := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer(), https)
	const path = "/app/secure"
	p := peers.Start(t, peers.Kazoo, srv.Addr())
	holder := p.Acquire(t, "h", "lock", path)
	p.WaitHeld(t, "h", 30*time.Second)
	p.Acquire(t, "w", "lock", path)
	base := []string{"--server", srv.Addr(), "--admin-port", fmt.Sprint(srv.AdminPort()), "--watches", "server"}

	for _, tc := range []struct {
		name string
		args []string
		fix  string // "" when the AdminServer answers
	}{
		{name: "trusted", args: []string{"--admin-scheme", "https", "--admin-ca", ca}},
		{name: "not verified", args: []string{"--admin-scheme", "https", "--admin-insecure-skip-verify"}},
		{name: "untrusted", args: []string{"--admin-scheme", "https"}, fix: "certificate is not trusted"},
		{name: "plain http", args: nil, fix: "no AdminServer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s showFull
			zktest.WaitUntil(t, 20*time.Second, func() string {
				s = showAll(t, append(base, tc.args...), path)
				if tc.fix == "" && s.Locks[0].Participants[1].Watches == nil {
					return "the waiter's watch is not in the table yet"
				}
				return ""
			})
			h := s.Locks[0].Participants[0]
			hex := fmt.Sprintf("0x%x", holder.Session)
			if tc.fix != "" {
				t.Logf("fix: %s", s.Fix)
				if !strings.Contains(s.Fix, tc.fix) || h.Client != nil || s.WatchesSource != "recipe" {
					t.Errorf("fix %q (want it to say %q), holder client %v, watches %s", s.Fix, tc.fix, h.Client, s.WatchesSource)
				}
				return
			}
			if s.Fix != "" || h.Client == nil || h.Member == nil || *h.Member != srv.Addr() || s.WatchesSource != "server" {
				// The text's checks below need the holder's client.
				t.Fatalf("fix %q, holder %s client %v member %v, watches %s", s.Fix, hex, h.Client, h.Member, s.WatchesSource)
			}
			if len(s.Servers) != 1 || s.Servers[0].Answered["cons"] != "admin" {
				t.Errorf("servers %+v: want cons answered by the AdminServer", s.Servers)
			}
			// The text: the holder's client in its row, and how the
			// member answered.
			out, _, _ := run(t, append(append([]string{"show"}, append(base, tc.args...)...), path)...)
			var row string
			for line := range strings.SplitSeq(out, "\n") {
				if strings.Contains(line, hex) {
					row = line
				}
			}
			if !strings.Contains(out, "CLIENT") || !strings.Contains(row, *h.Client) ||
				!strings.Contains(out, srv.Addr()+": by AdminServer (words refused): cons") {
				t.Errorf("show text should name the holder's client %s in its row and say cons came by the AdminServer:\n%s", *h.Client, out)
			}
		})
	}
}
