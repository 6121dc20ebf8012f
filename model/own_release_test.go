package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestOwnReleaseReadsReleased: a release zklocks' own lock client told
// (the demo's contenders, the operator's acquire) ends its hold by its
// owner, whether the tell or the node's end comes first, even after a
// members' answer settled it as "released, or force-released" and
// followed the holder; it is no operator's action, and a tell of another
// node, or of the same node made again, changes nothing.
func TestOwnReleaseReadsReleased(t *testing.T) {
	all := lockOf("/t", 0, 1, 2)
	holder := all.Participants[0]
	own := func(token int64) zkwatch.Event {
		return ActionEvent(OwnRelease(t0.Add(time.Second), holder.Path, token, holder.Session))
	}
	talking := zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(3 * time.Second), ClientsAsked: t0.Add(3 * time.Second), ClientsComplete: true,
		Clients: map[int64]zkwatch.ClientInfo{100: {Session: 100, Asked: t0.Add(3 * time.Second), Heard: t0.Add(3 * time.Second), Timeout: 30 * time.Second},
			101: {Session: 101}, 102: {Session: 102}}}
	start := func() *State {
		s := NewState()
		s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
		s.Apply(lockEvent(all))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
		return s
	}
	released := func(s *State) *HistoryEntry {
		for i := range s.History {
			if h := &s.History[i]; h.Change == Released && h.Node == holder.Node {
				return h
			}
		}
		t.Fatalf("no release logged: %+v", s.History)
		return nil
	}
	for name, steps := range map[string][]zkwatch.Event{
		"told first":      {own(holder.Token), lockEvent(lockOf("/t", 1, 2)), talking},
		"node gone first": {lockEvent(lockOf("/t", 1, 2)), own(holder.Token), talking},
	} {
		t.Run(name, func(t *testing.T) {
			s := start()
			for _, ev := range steps {
				s.Apply(ev)
			}
			if h := released(s); h.EndedBy != EndedByOwner || h.Action != nil || EndingText(*h) != "released" {
				t.Errorf("ended by %q (%q), action %v", h.EndedBy, EndingText(*h), h.Action)
			}
			if len(s.Forced) != 0 || s.OperatedN != 0 {
				t.Errorf("followed %+v, operated %d", s.Forced, s.OperatedN)
			}
		})
	}
	t.Run("told after an answer", func(t *testing.T) {
		s := start()
		s.Apply(lockEvent(lockOf("/t", 1, 2)))
		s.Apply(talking)
		if h := released(s); h.EndedBy != EndedByRelease || len(s.Forced) != 1 {
			t.Fatalf("before the tell: ended by %q, followed %+v", h.EndedBy, s.Forced)
		}
		s.Apply(own(holder.Token))
		if h := released(s); h.EndedBy != EndedByOwner || len(s.Forced) != 0 {
			t.Errorf("after the tell: ended by %q, followed %+v", h.EndedBy, s.Forced)
		}
	})
	t.Run("another token", func(t *testing.T) {
		s := start()
		for _, ev := range []zkwatch.Event{own(holder.Token + 1), lockEvent(lockOf("/t", 1, 2)), talking} {
			s.Apply(ev)
		}
		if h := released(s); h.EndedBy != EndedByRelease {
			t.Errorf("a tell of another node ended it by %q", h.EndedBy)
		}
	})
	t.Run("an operator's force-release first", func(t *testing.T) {
		s := start()
		s.Apply(ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: holder.Path,
			Token: holder.Token, Owner: holder.Session}))
		s.Apply(lockEvent(lockOf("/t", 1, 2)))
		s.Apply(own(holder.Token))
		if h := released(s); h.EndedBy != EndedByOperator {
			t.Errorf("the operator's force-release read %q", h.EndedBy)
		}
	})
}
