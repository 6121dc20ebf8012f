package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// A holder whose node went while its session lived, by no action of this
// zklocks' operator, is followed as not told while its session talks: its
// client released, or another client force-released it. One whose session
// is not known to talk is not; a force-release told after makes it forced.
func TestHolderDeletedWhileItsSessionTalksIsNotTold(t *testing.T) {
	start := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0.Add(-time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: t0.Add(-time.Minute)},
		storyLockAt(-50*time.Second, 0, 1),
		talkingServers(-45*time.Second, 100, 101),
		// 0's node goes; the next answer hears its session still.
		storyLockAt(-10*time.Second, 1),
	}
	s := NewState()
	for _, ev := range append(start, talkingServers(-5*time.Second, 100, 101)) {
		s.Apply(ev)
	}
	if len(s.Forced) != 1 || !s.Forced[0].Maybe || s.Forced[0].Session != 0x64 || s.Forced[0].Action != nil || !s.Forced[0].At().Equal(t0.Add(-10*time.Second)) {
		t.Fatalf("forced %+v, want 0x64 followed as maybe force-released at -10s", s.Forced)
	}
	ended := s.EndedOf([]string{"/t"})
	if len(ended) != 1 || !ended[0].NotTold || len(ended[0].NewHolders) != 1 {
		t.Errorf("ended %+v, want 0x64's hold not told, with its successor", ended)
	}
	// Its client queues again: it knows it let go.
	again := storyLockAt(0, 1, 2)
	again.Lock.Participants[1].Session = 0x64
	s.Apply(again)
	if len(s.Forced) != 0 {
		t.Errorf("still followed after it queued again: %+v", s.Forced)
	}

	// Listed, but not known to talk: not followed.
	s = NewState()
	for _, ev := range append(start, storyServers(-5*time.Second, 100, 101)) {
		s.Apply(ev)
	}
	if len(s.Forced) != 0 {
		t.Errorf("a session not known to talk is followed: %+v", s.Forced)
	}
}

// A holder whose client released and queued again before the members'
// answer settled its ending knows it let go: it is not followed as not
// told, where its new node, already there when the answer came, would
// have been counted among the nodes it had.
func TestHolderQueuedAgainBeforeItsEndIsSettledIsNotFollowed(t *testing.T) {
	again := storyLockAt(-8*time.Second, 1, 2)
	again.Lock.Participants[1].Session = 0x64
	s := NewState()
	for _, ev := range []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0.Add(-time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: t0.Add(-time.Minute)},
		storyLockAt(-50*time.Second, 0, 1),
		talkingServers(-45*time.Second, 100, 101),
		// 0's node goes, and its session queues again before the answer.
		storyLockAt(-10*time.Second, 1),
		again,
		talkingServers(-5*time.Second, 100, 101),
	} {
		s.Apply(ev)
	}
	if len(s.Forced) != 0 {
		t.Errorf("followed as not told after it queued again: %+v", s.Forced)
	}
	if ended := s.EndedOf([]string{"/t"}); len(ended) != 1 || ended[0].NotTold {
		t.Errorf("ended %+v, want 0x64's hold ended and told", ended)
	}
}

// talkingServers is storyServers at t0+d whose members heard each session
// a second before they were asked: every one talks.
func talkingServers(d time.Duration, sessions ...int64) zkwatch.Event {
	ev := storyServers(d, sessions...)
	for id, ci := range ev.Clients {
		ci.Asked, ci.Heard = t0.Add(d-time.Second), t0.Add(d-2*time.Second)
		ev.Clients[id] = ci
	}
	return ev
}
