package zkwatch

import (
	"errors"
	"fmt"
	"github.com/zklocks/zklocks/zkwatch/words"
	"strings"
	"testing"
)

func TestProbeWayAndFix(t *testing.T) {
	refused := fmt.Errorf("%w: cons", words.ErrFourLetterRefused)
	missing := fmt.Errorf("%w at http://x:8080/commands/connections: connection refused", words.ErrAdminUnavailable)
	clients := Capabilities[0]
	expiry := Capabilities[4]
	for _, tc := range []struct {
		name    string
		p       Probe
		c       Capability
		via     words.Via
		why     string // a part of why, when via is ""
		fix     []string
		fixNone bool
	}{
		{name: "word answers", p: Probe{Words: map[string]error{"cons": nil}}, c: clients, via: words.ViaWord},
		{name: "AdminServer answers", p: Probe{Words: map[string]error{"cons": refused}, Admin: map[string]error{"cons": nil}}, c: clients, via: words.ViaAdmin},
		{name: "neither", p: Probe{Words: map[string]error{"cons": refused}, Admin: map[string]error{"cons": missing}}, c: clients,
			why: "cons refused, no AdminServer", fix: []string{words.WhitelistFix, "turn the AdminServer on"}},
		{name: "AdminServer off", p: Probe{Words: map[string]error{"cons": refused}}, c: clients,
			why: "--admin-port=off", fix: []string{words.WhitelistFix, "turn the AdminServer on"}},
		{name: "AdminServer fails", p: Probe{Words: map[string]error{"cons": refused}, Admin: map[string]error{"cons": errors.New("zkwatch: timeout")}}, c: clients,
			why: "AdminServer's connections failed (timeout)", fix: []string{words.WhitelistFix, "check the AdminServer (timeout)"}},
		{name: "a follower has no expiry times", p: Probe{Mode: "follower", Words: map[string]error{"dump": nil}}, c: expiry,
			why: "only the leader's dump", fixNone: true},
		{name: "the leader has them", p: Probe{Mode: "leader", Words: map[string]error{"dump": nil}}, c: expiry, via: words.ViaWord},
	} {
		t.Run(tc.name, func(t *testing.T) {
			via, why := tc.p.Way(tc.c)
			if via != tc.via || !strings.Contains(why, tc.why) {
				t.Errorf("Way = %q, %q; want %q, %q", via, why, tc.via, tc.why)
			}
			if via != "" {
				return
			}
			fix := tc.p.Fix(tc.c)
			if tc.fixNone != (fix == "") {
				t.Errorf("Fix = %q", fix)
			}
			for _, f := range tc.fix {
				if !strings.Contains(fix, f) {
					t.Errorf("Fix = %q, want it to say %q", fix, f)
				}
			}
		})
	}
}
