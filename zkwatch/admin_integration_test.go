package zkwatch

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationEnricherAdminServer: an ensemble whose members allow only
// srvr but run an AdminServer: the Enricher gets every member's clients and
// watches from it, with session ids exact (they are above 2^53), counts and
// paces each command under the word it stands for, reads watch_summary for
// the budget, and remembers that the words are refused.
func TestIntegrationEnricherAdminServer(t *testing.T) {
	t.Parallel()
	ens := zktest.StartEnsemble(t, 3, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	members := ens.Members()
	admin := &words.AdminServer{Ports: map[string]int{}}
	var addrs []string
	for _, m := range members {
		addrs = append(addrs, m.Addr())
		admin.Ports[m.Addr()] = m.AdminPort()
	}
	a, b := members[0].Connect(t), members[2].Connect(t)
	if _, err := a.Create("/w", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := b.GetW("/w"); err != nil {
		t.Fatal(err)
	}
	if b.SessionID() <= 1<<53 {
		t.Fatalf("session %d: the test needs ids above 2^53, where float64 cannot hold every one", b.SessionID())
	}

	e := NewEnricher(addrs, 0)
	e.Admin, e.Mode, e.Budget = admin, WatchesAuto, 10
	// The asks are counted here, not timed: a member whose srvr outlasts
	// the 2 s a watcher gives it on a loaded machine is asked nothing
	// more that poll, and the counts come up short.
	e.wordTimeout = time.Minute
	var en Enrichment
	for range 2 {
		en = e.Poll(context.Background())
	}
	for i, s := range en.Servers {
		if s.Err != nil || s.Status.Mode == "" || s.Via["cons"] != words.ViaAdmin || s.Via["wchs"] != words.ViaAdmin || s.Via["wchc"] != words.ViaAdmin || s.Via["srvr"] != words.ViaWord {
			t.Errorf("member %d: %+v", i, s)
		}
	}
	if !en.Complete || en.Clients[a.SessionID()].Server != addrs[0] || en.Clients[b.SessionID()].Server != addrs[2] {
		t.Fatalf("clients (complete %v, %s): %+v", en.Complete, en.ClientsNote, en.Clients)
	}
	if got := en.ByPath["/w"]; !reflect.DeepEqual(got, []int64{b.SessionID()}) {
		t.Errorf("watchers of /w: %d, want exactly %d (note %q)", got, b.SessionID(), en.WatchesNote)
	}
	vias := map[words.Via]int{}
	for _, m := range en.Cost {
		for _, w := range m.Words {
			vias[w.Via]++
			if w.Word != "srvr" && w.Via != words.ViaAdmin {
				t.Errorf("%s %s last asked by %q", m.Member, w.Word, w.Via)
			}
		}
	}
	if vias[words.ViaAdmin] != 4*3 { // cons, wchs, wchc and the configuration on each member
		t.Errorf("costs by way %v, want 12 words by the AdminServer", vias)
	}
	// Two polls: each word asked twice of each member, the refused
	// four-letter word once, the first time only; and the AdminServer's
	// configuration, which proves it the member's, once: on the first
	// connection, which the AdminServer keeps open for every command after.
	for _, m := range en.Cost {
		for _, w := range m.Words {
			if want := map[string]int{"srvr": 2, "cons": 3, "wchs": 3, "wchc": 3, "conf": 1}[w.Word]; w.Asks != want {
				t.Errorf("%s %s: %d asks, want %d (two by the AdminServer, one refused; one proof)", m.Member, w.Word, w.Asks, want)
			}
		}
	}

	// Over the budget, the table is not read, as with wchs.
	for i := range 12 {
		if _, _, _, err := b.ExistsW(fmt.Sprintf("/absent-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	e2 := NewEnricher(addrs, 0)
	e2.Admin, e2.Mode, e2.Budget = admin, WatchesAuto, 10
	e2.wordTimeout = time.Minute
	if en := e2.Poll(context.Background()); en.Watches != nil || en.WatchesNote != "13 watches, over the budget of 10, on "+addrs[2] {
		t.Errorf("over the budget: watches %v, note %q", en.Watches, en.WatchesNote)
	}
	// Nor is any other member's, within the budget: without the table of
	// the member over it, theirs make no table.
	for _, m := range e2.Costs.Snapshot() {
		for _, w := range m.Words {
			if w.Word == "wchc" || w.Word == "wchp" {
				t.Errorf("%s asked for its watch table (%s, %d times) while %s is over the budget", m.Member, w.Word, w.Asks, addrs[2])
			}
		}
	}
}

// TestIntegrationMembersByAdminServer: members whose client addresses
// /zookeeper/config does not give are told apart by their server id, which
// conf gives, or the AdminServer's configuration where conf is refused.
func TestIntegrationMembersByAdminServer(t *testing.T) {
	t.Parallel()
	ens := zktest.StartEnsemble(t, 3, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer(), zktest.WithoutClientAddresses())
	admin := &words.AdminServer{Ports: map[string]int{}}
	var addrs []string
	for _, m := range ens.Members() {
		addrs = append(addrs, m.Addr())
		admin.Ports[m.Addr()] = m.AdminPort()
	}
	for _, a := range []*words.AdminServer{admin, {Off: true}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		conn, err := Dial(ctx, Options{Target: Target{Servers: addrs}, Admin: a})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		got := conn.Members(ctx)
		conn.Close()
		cancel()
		switch {
		case a.Enabled() && (len(got.Servers) != 3 || len(got.Missing) != 0):
			t.Errorf("through the AdminServer: %+v, want the three members and none missing", got)
		case !a.Enabled() && (len(got.Servers) != 3 || len(got.Missing) != 0):
			// Each server named stands for a member on its host: asked
			// anyway, what it refuses is said of its address.
			t.Errorf("without it (conf refused): %+v, want the three servers named and none missing", got)
		}
	}
}
