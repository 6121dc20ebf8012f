package model

import (
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
