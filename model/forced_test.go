package model

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestForcedFollowsUntilItLetsGo: a force-released contender is followed
// whether the action or its node's end comes first, with the role it had,
// until its session is gone from a complete answer asked for after the
// force-release or it queues again; an
// action that failed, or that deleted nothing, is not followed.
func TestForcedFollowsUntilItLetsGo(t *testing.T) {
	servers := func(sessions ...int64) zkwatch.Event {
		clients := map[int64]zkwatch.ClientInfo{}
		for _, id := range sessions {
			clients[id] = zkwatch.ClientInfo{Session: id}
		}
		return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(2 * time.Second), ClientsAsked: t0.Add(2 * time.Second), ClientsComplete: true, Clients: clients}
	}
	force := func(l *lockcore.Lock, i int, kind lockcore.ActionKind, failed string) zkwatch.Event {
		p := l.Participants[i]
		return ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: kind, Node: p.Path, Token: p.Token, Owner: p.Session, Failed: failed})
	}
	start := func() *State {
		s := NewState()
		s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
		s.Apply(lockEvent(lockOf("/t", 0, 1, 2)))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
		return s
	}
	all := lockOf("/t", 0, 1, 2)

	t.Run("action first, a waiter", func(t *testing.T) {
		s := start()
		s.Apply(force(all, 1, lockcore.ActionForceRelease, ""))
		s.Apply(lockEvent(lockOf("/t", 0, 2)))
		if len(s.Forced) != 1 || s.Forced[0].Role != lockcore.RoleWaiter || s.Forced[0].Lock != "/t" ||
			s.Forced[0].Node != all.Participants[1].Path || s.Forced[0].Session != 101 || !s.Forced[0].At().Equal(t0.Add(time.Second)) {
			t.Fatalf("forced: %+v", s.Forced)
		}
		// An answer asked for before the force-release (the watcher hands
		// its last answer on again) says nothing of after it.
		stale := servers(100, 102)
		stale.ClientsAsked = t0
		s.Apply(stale)
		if len(s.Forced) != 1 {
			t.Fatal("forgotten on an answer asked for before the force-release")
		}
		s.Apply(servers(100, 101, 102))
		if len(s.Forced) != 1 {
			t.Fatal("forgotten while its session is connected")
		}
		s.Apply(servers(100, 102))
		if len(s.Forced) != 0 {
			t.Fatalf("still followed after its session went: %+v", s.Forced)
		}
	})
	t.Run("node gone first, a holder", func(t *testing.T) {
		s := start()
		s.Apply(lockEvent(lockOf("/t", 1, 2)))
		s.Apply(force(all, 0, lockcore.ActionForceRelease, ""))
		if len(s.Forced) != 1 || s.Forced[0].Role != lockcore.RoleHolder {
			t.Fatalf("forced: %+v", s.Forced)
		}
		before := s.Clone()
		// The same session queues again.
		again := lockOf("/t", 1, 2, 3)
		again.Participants[2].Session = 100
		s.Apply(lockEvent(again))
		if len(s.Forced) != 0 {
			t.Fatalf("still followed after it queued again: %+v", s.Forced)
		}
		if len(before.Forced) != 1 {
			t.Fatal("a clone's forced contenders changed with the state's")
		}
	})
	for _, c := range []struct {
		name   string
		kind   lockcore.ActionKind
		failed string
	}{{"failed", lockcore.ActionForceRelease, "node is gone"}, {"revoke", lockcore.ActionRevoke, ""}, {"fence", lockcore.ActionFence, ""}} {
		t.Run(c.name+" not followed", func(t *testing.T) {
			s := start()
			s.Apply(force(all, 0, c.kind, c.failed))
			if len(s.Forced) != 0 {
				t.Fatalf("forced: %+v", s.Forced)
			}
		})
	}
}

// TestEndedForcedNotTold: show's report of a recording tells a
// force-released contender whose session is still connected as not told,
// a holder with who holds now and a waiter as still waiting, in text and
// JSON; once its session is gone, it is told no more.
func TestEndedForcedNotTold(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	all := lockOf("/t", 0, 1, 2)
	s.Apply(lockEvent(all))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	for _, i := range []int{0, 1} {
		p := all.Participants[i]
		s.Apply(ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: p.Path, Token: p.Token, Owner: p.Session}))
	}
	s.Apply(lockEvent(lockOf("/t", 2)))
	connected := zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(2 * time.Second), ClientsAsked: t0.Add(2 * time.Second), ClientsComplete: true,
		Clients: map[int64]zkwatch.ClientInfo{100: {Session: 100}, 101: {Session: 101}, 102: {Session: 102}}}
	s.Apply(connected)

	ended := s.EndedOf([]string{"/t"})
	if len(ended) != 2 || !ended[0].NotTold || !ended[1].NotTold || len(ended[0].NewHolders) != 1 || ended[1].NewHolders != nil {
		t.Fatalf("ended: %+v", ended)
	}
	r := Report{Locks: []lockcore.Lock{*s.Locks["/t"]}, Links: s.Links, Ended: ended}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not told: may believe it holds; holds now: 0x66 token", "not told: may believe it still waits"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js.String(), `"not_told": true`); n != 2 {
		t.Errorf("%d endings not told in the JSON, want 2:\n%s", n, js.String())
	}

	gone := connected
	gone.At, gone.ClientsAsked, gone.Clients = t0.Add(4*time.Second), t0.Add(4*time.Second), map[int64]zkwatch.ClientInfo{102: {Session: 102}}
	s.Apply(gone)
	for _, e := range s.EndedOf([]string{"/t"}) {
		if e.NotTold {
			t.Errorf("told as not told after its session went: %+v", e)
		}
	}
}
