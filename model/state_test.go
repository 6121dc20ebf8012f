package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

var t0 = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// lockOf analyses a go-zookeeper-style lock with the given sequence numbers
// (session = 100 + seq).
func lockOf(path string, seqs ...int) *lockcore.Lock {
	t := lockcore.Tree{Path: path, ReadAt: t0}
	for _, s := range seqs {
		t.Children = append(t.Children, lockcore.Node{
			Name: fmt.Sprintf("_c_%032x-lock-%010d", s, s),
			Stat: zk.Stat{Czxid: int64(s + 1), EphemeralOwner: int64(100 + s), Ctime: t0.Add(-time.Minute).UnixMilli()}})
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{})
	return &l
}

func lockEvent(l *lockcore.Lock) zkwatch.Event {
	return zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}
}

func changes(s *State) string {
	out := ""
	for _, h := range s.History {
		out += fmt.Sprintf("%s:%d ", h.Change, h.Seq)
	}
	return out
}

func TestStateHistory(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(lockEvent(lockOf("/l", 0, 1)))
	if !s.Stale() || len(s.History) != 0 {
		t.Fatalf("before the first sync: stale %v, history %q", s.Stale(), changes(s))
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	if s.Stale() {
		t.Fatal("connected and synced is not stale")
	}
	s.Apply(lockEvent(lockOf("/l", 0, 1, 2)))
	s.Apply(lockEvent(lockOf("/l", 1, 2)))
	s.Apply(lockEvent(lockOf("/l", 2)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLockGone, At: t0, Path: "/l"})
	if got := changes(s); got != "joined:2 released:0 granted:1 released:1 granted:2 released:2 " {
		t.Fatalf("history = %q", got)
	}
	if s.Grants != 2 || s.FIFOBreaks != 0 || s.Locks["/l"] != nil {
		t.Fatalf("grants %d breaks %d lock %v", s.Grants, s.FIFOBreaks, s.Locks["/l"])
	}
	s.Apply(lockEvent(lockOf("/m", 0, 1)))
	s.Apply(lockEvent(lockOf("/m", 0)))
	if h := s.History[len(s.History)-1]; h.Change != Left || h.Seq != 1 || h.Lock != "/m" {
		t.Fatalf("a waiter leaving: %+v", h)
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected}})
	if !s.Stale() {
		t.Fatal("a disconnected picture is stale")
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: t0, Conn: zkwatch.ConnState{Phase: zkwatch.Expired, Session: 7}})
	if h := s.History[len(s.History)-1]; h.Change != Expired || h.Session != 7 {
		t.Fatalf("expiry not logged: %+v", h)
	}
}

func TestStateFIFOBreak(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	held := lockOf("/l", 0, 1, 2)
	s.Apply(lockEvent(held))
	// A later contender shown holding while an earlier one waits: a grant
	// out of order (as a naive or buggy client can produce).
	odd := lockOf("/l", 1, 2)
	odd.Participants[0].Role, odd.Participants[1].Role = lockcore.RoleWaiter, lockcore.RoleHolder
	s.Apply(lockEvent(odd))
	if s.FIFOBreaks != 1 || !s.History[len(s.History)-1].OutOfOrder {
		t.Fatalf("FIFO break not counted: %d %q", s.FIFOBreaks, changes(s))
	}
}

func TestHistoryOfAPlainLockNode(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	plain := func(token int64) *lockcore.Lock {
		self := lockcore.Node{Name: "lock", Stat: zk.Stat{Czxid: token, EphemeralOwner: token}}
		l := lockcore.Analyze(lockcore.Tree{Path: "/naive/lock", Self: self, ReadAt: t0}, nil, lockcore.Options{})
		return &l
	}
	s.Apply(lockEvent(plain(10)))
	s.Apply(lockEvent(plain(11))) // the next holder took the same path
	got := ""
	for _, h := range s.History {
		got += fmt.Sprintf("%s:%d ", h.Change, h.Session)
	}
	if got != "joined:10 granted:10 released:10 joined:11 granted:11 " {
		t.Fatalf("history = %q", got)
	}
}
