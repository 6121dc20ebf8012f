package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestLsSaysNothingWhenEveryWordAnswered: ls's stderr stays empty for a
// member whose AdminServer answered every word it refused (ZooKeeper as
// Debian ships it), and says how a member answered when a word went
// unanswered (and why its AdminServer did not answer it) or its
// AdminServer failed.
func TestLsSaysNothingWhenEveryWordAnswered(t *testing.T) {
	admin := map[string]words.Via{"cons": words.ViaAdmin, "wchc": words.ViaAdmin, "srvr": words.ViaWord}
	for _, c := range []struct {
		name string
		sv   zkwatch.ServerInfo
		say  string
	}{
		{"all answered", zkwatch.ServerInfo{Addr: "zk1:2181", Refused: []string{"cons", "wchc"}, Via: admin}, ""},
		{"one unanswered", zkwatch.ServerInfo{Addr: "zk1:2181", Refused: []string{"cons", "dump"}, Via: admin},
			"refused, no answer: dump"},
		{"admin timed out", zkwatch.ServerInfo{Addr: "zk1:2181", Refused: []string{"cons"}, Via: map[string]words.Via{"srvr": words.ViaWord},
			Failed: map[string]error{"cons": errors.New("words: http://zk1:8080/commands/connections: context deadline exceeded (no answer in 2s)")}},
			"refused, no answer: cons (the AdminServer's answer failed: http://zk1:8080/commands/connections: context deadline exceeded (no answer in 2s))"},
		{"admin failed", zkwatch.ServerInfo{Addr: "zk1:2181", Refused: []string{"cons"}, Via: admin,
			AdminErr: errors.New("words: AdminServer: 500")}, "zk1:2181: by AdminServer"},
	} {
		var b strings.Builder
		writeWays(&b, []zkwatch.ServerInfo{c.sv}, "")
		if got := b.String(); (c.say == "") != (got == "") || !strings.Contains(got, c.say) {
			t.Errorf("%s: %q, want %q", c.name, got, c.say)
		}
	}
}
