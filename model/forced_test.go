package model

import (
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
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

// A single-node lock's holder takes the lock by the same path each time:
// force-released, it has queued again when its session makes the node
// again (another token), not while the node is the one it had.
func TestForcedSingleNodeHolderTakesItAgain(t *testing.T) {
	held := singleNode(5, t0)
	if len(held.Participants) != 1 || held.Participants[0].Role != lockcore.RoleHolder || held.Participants[0].Path != singleNodeLock {
		t.Fatalf("the single node read as %+v", held.Participants)
	}
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(lockEvent(held))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	s.Apply(ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: singleNodeLock, Token: 5, Owner: 100}))
	if len(s.Forced) != 1 {
		t.Fatalf("forced: %+v", s.Forced)
	}
	// The node it had, read again before the delete is seen: not queued again.
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(time.Second), Path: singleNodeLock, Lock: singleNode(5, t0.Add(time.Second))})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(2 * time.Second), Path: singleNodeLock, Lock: singleNode(0, t0.Add(2*time.Second))})
	if len(s.Forced) != 1 {
		t.Fatalf("forgotten before its session made the node again: %+v", s.Forced)
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(3 * time.Second), Path: singleNodeLock, Lock: singleNode(9, t0.Add(3*time.Second))})
	if len(s.Forced) != 0 {
		t.Fatalf("still followed after its session made the node again: %+v", s.Forced)
	}
}

// singleNodeLock is a single-node lock's path, and singleNode its reading
// at at: held by session 100's node of that czxid, or free (0).
const singleNodeLock = "/app/leader/lock"

func singleNode(czxid int64, at time.Time) *lockcore.Lock {
	tr := lockcore.Tree{Path: singleNodeLock, ReadAt: at, Absent: czxid == 0}
	if czxid != 0 {
		tr.Self = lockcore.Node{Name: "lock", Stat: zk.Stat{Czxid: czxid, EphemeralOwner: 100, Ctime: at.UnixMilli()}}
	}
	l := lockcore.Analyze(tr, nil, lockcore.Options{})
	return &l
}

// The operator's force-release of a single-node lock's holder, told after
// its node was seen to go, ends that hold as forced, not released, and
// its holder is followed as not told.
func TestForceReleaseOfASingleNodeLockSeenGoneFirst(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(lockEvent(singleNode(5, t0)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(time.Second), Path: singleNodeLock, Lock: singleNode(0, t0.Add(time.Second))})
	s.Apply(ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: singleNodeLock, Token: 5, Owner: 100}))
	var ended *HistoryEntry
	for i := range s.History {
		if s.History[i].Change == Released {
			ended = &s.History[i]
		}
	}
	if ended == nil || ended.EndedBy != EndedByOperator || ended.Action == nil {
		t.Fatalf("the hold's end: %+v", ended)
	}
	if e, ok := s.EndingOf(singleNodeLock, 5); !ok || e.EndedBy != EndedByOperator {
		t.Errorf("EndingOf the lock's node: %+v (found %v)", e, ok)
	}
	if len(s.Forced) != 1 || s.Forced[0].Node != singleNodeLock || s.Forced[0].Role != lockcore.RoleHolder {
		t.Errorf("forced: %+v", s.Forced)
	}
	if e := s.EndedOf([]string{singleNodeLock}); len(e) != 1 || !e[0].NotTold || e[0].Entry.NodePath() != singleNodeLock {
		t.Errorf("ended: %+v", e)
	}
}

// A single-node lock's holder, force-released, waits for the node again
// as its waiters do, with no node of its own: seen watching the node
// another session has made since, by a table read after that, it knows it
// let go. A table that predates the new node says nothing.
func TestForcedSingleNodeHolderWatchingAgainKnows(t *testing.T) {
	remade := func(asOf int64) *lockcore.Lock {
		at := t0.Add(3 * time.Second)
		tr := lockcore.Tree{Path: singleNodeLock, ReadAt: at,
			Self: lockcore.Node{Name: "lock", Stat: zk.Stat{Czxid: 9, Pzxid: 9, EphemeralOwner: 101, Ctime: at.UnixMilli()}}}
		table := lockcore.NewWatchTable(map[int64][]string{100: {singleNodeLock}}).AsOf(asOf)
		l := lockcore.Analyze(tr, table, lockcore.Options{})
		return &l
	}
	for _, c := range []struct {
		asOf int64
		told bool
	}{{asOf: 12, told: true}, {asOf: 7, told: false}} {
		s := NewState()
		s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
		s.Apply(lockEvent(singleNode(5, t0)))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
		s.Apply(ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: singleNodeLock, Token: 5, Owner: 100}))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(2 * time.Second), Path: singleNodeLock, Lock: singleNode(0, t0.Add(2*time.Second))})
		l := remade(c.asOf)
		if c.told && !slices.Contains(l.HiddenWaiters, 100) {
			t.Fatalf("table as of %d: hidden waiters %v, want session 100 among them", c.asOf, l.HiddenWaiters)
		}
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(3 * time.Second), Path: singleNodeLock, Lock: l})
		if told := len(s.Forced) == 0; told != c.told {
			t.Errorf("table as of %d: forced %+v; want followed %v", c.asOf, s.Forced, !c.told)
		}
	}
}
