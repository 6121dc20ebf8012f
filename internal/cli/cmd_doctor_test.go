package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestDoctorTextGivesEachFixOnce: three members as Debian ships them
// with the AdminServer off (srvr only): each fix is said once, naming
// the members it is for, and a follower's "only the leader's dump" is
// fine when the leader gives it, not a ✗.
func TestDoctorTextGivesEachFixOnce(t *testing.T) {
	refused := func(w string) error { return fmt.Errorf("%w: %s", words.ErrFourLetterRefused, w) }
	probe := func(member, mode string, dump bool) zkwatch.Probe {
		p := zkwatch.Probe{Member: member, Mode: mode, Words: map[string]error{}}
		for _, w := range zkwatch.ProbeWords {
			p.Words[w] = refused(w)
		}
		p.Words["srvr"] = nil
		if dump {
			p.Words["dump"] = nil
		}
		return p
	}
	d := diagnosis{probes: []zkwatch.Probe{probe("zk1:2181", "follower", true), probe("zk2:2181", "leader", true),
		probe("zk3:2181", "follower", true)}}
	var b strings.Builder
	if err := d.writeText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, words.WhitelistFix); n != 1 {
		t.Errorf("the whitelist fix said %d times:\n%s", n, out)
	}
	if !strings.Contains(out, "  on zk1:2181, zk2:2181, zk3:2181: add "+words.WhitelistFix) {
		t.Errorf("the fix does not name its members:\n%s", out)
	}
	if n := strings.Count(out, "✓ when a disconnected session expires  (from the leader, zk2:2181)"); n != 2 {
		t.Errorf("the followers' expiry times from the leader said %d times:\n%s", n, out)
	}
	if strings.Contains(out, "✗ when a disconnected session expires") {
		t.Errorf("a follower's expiry times marked ✗:\n%s", out)
	}

	// A leader that does not give it: the followers' lines say why.
	d.probes[1] = probe("zk2:2181", "leader", false)
	b.Reset()
	if err := d.writeText(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "✗ when a disconnected session expires: only the leader's dump") {
		t.Errorf("no leader gives it, yet:\n%s", out)
	}
}
