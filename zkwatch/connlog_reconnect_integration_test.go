//go:build !race

package zkwatch_test

// Run without -race, as reconnect_integration_test.go's tests: the
// watcher's connection is dropped while it holds watches.

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationReconnectOwnConnectionLogged: on a three-member
// ensemble, the event log says what happened to zklocks' own connection
// and to the ensemble, in order: the member it was connected to stops
// (our connection lost, the session taken back by another member, that
// member down, the picture re-read), comes back (up again), and the
// leader stops (the leader changed, naming the new one and the old).
func TestIntegrationReconnectOwnConnectionLogged(t *testing.T) {
	ens := zktest.StartEnsemble(t, 3)
	members := ens.Members()
	admin := ens.Connect(t)
	mkdirs(t, admin, "/own")
	contender(t, admin, "/own")
	c := watchtest.Watch(t, watchtest.Dial(t, ens.ConnectString(), zkwatch.Options{SessionTimeout: 4 * time.Second}),
		zkwatch.WatchConfig{Roots: []string{"/own"}, EnrichEvery: 200 * time.Millisecond})
	answered := func(s *model.State) bool {
		up := 0
		for _, sv := range s.Servers {
			if sv.Err == nil {
				up++
			}
		}
		return up == len(members)
	}
	c.Until(t, "the first sync and every member's answer", func(s *model.State) bool {
		return !s.FirstSync.IsZero() && answered(s) && s.Locks["/own"] != nil
	})
	server := c.State().Conn.Server
	ours := -1
	for i, m := range members {
		if m.Addr() == server {
			ours = i
		}
	}
	if ours < 0 {
		t.Fatalf("connected to %s, not a member", server)
	}

	logged := func(change model.Change, note string) func(*model.State) bool {
		return func(s *model.State) bool { return find(s, change, note) >= 0 }
	}
	members[ours].Stop()
	c.Until(t, "our connection lost", logged(model.ConnLost, "our connection to "+server+" lost"))
	c.Until(t, "the session taken back", logged(model.Reconnected, "same session"))
	c.Until(t, "the picture re-read", logged(model.Reread, "1 lock re-read"))
	c.Until(t, "the member down", logged(model.MemberDown, "member "+server+" stopped answering"))
	members[ours].Restart()
	c.UntilWithin(t, 60*time.Second, "the member up", logged(model.MemberUp, "member "+server+" answers again"))

	leader := members[ens.Leader()].Addr()
	members[ens.Leader()].Stop()
	// A poll during the election may first find a member that still
	// serves and none that leads ("no member answers as leader (was …)"),
	// as a loaded machine's followers notice the leader gone one after
	// the other: the new leader's entry comes after it.
	c.UntilWithin(t, 60*time.Second, "the leader changed", func(s *model.State) bool {
		for _, h := range s.History {
			if h.Change == model.LeaderChanged && strings.HasPrefix(h.Note, "leader now ") && strings.Contains(h.Note, "(was "+leader+")") {
				return true
			}
		}
		return false
	})
	s := c.State()

	lost, back, reread := find(s, model.ConnLost, ""), find(s, model.Reconnected, ""), find(s, model.Reread, "")
	if !(lost < back && back < reread) {
		t.Fatalf("out of order (lost %d, reconnected %d, re-read %d): %+v", lost, back, reread, s.History)
	}
	for _, h := range s.History {
		t.Logf("%s %-12s %s", h.At.Format("15:04:05.000"), h.Change, h.Note)
		if h.Change.Ours() && (h.Lock != "" || h.Note == "") {
			t.Fatalf("an entry about our connection without its words, or with a lock: %+v", h)
		}
	}
}

// find is the index of the first entry of change whose note has note.
func find(s *model.State, change model.Change, note string) int {
	for i, h := range s.History {
		if h.Change == change && strings.Contains(h.Note, note) {
			return i
		}
	}
	return -1
}
