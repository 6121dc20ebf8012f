package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// A hold whose session ended with its node, with nothing to tell an expiry
// from a close, is told as ended with its session, never as released.
func TestTellStorySessionEndIsNotARelease(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	lockAt, servers := storyLockAt, storyServers
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: at(-time.Minute)},
		lockAt(-50*time.Second, 0, 1),
		servers(-45*time.Second, 100, 101),
		// 0's node goes while its session was last listed: not known yet.
		lockAt(-10*time.Second, 1),
		// The next complete answer lists it nowhere: it ended with its
		// node, heard from too long ago to say it was closed, never
		// seen silent to say it expired.
		servers(-5*time.Second, 101),
	}
	st := TellStory(evs, "/t", time.Time{}, time.Time{})
	if len(st.Holds) == 0 || st.Holds[0].Session != "0x64" {
		t.Fatalf("holds %+v", st.Holds)
	}
	if h := st.Holds[0]; h.End != EndSessionEnded {
		t.Errorf("0x64's hold ended %q, want %q", h.End, EndSessionEnded)
	}
}

// Only a node deleted while its session lived reads as released or
// forced, and never as a plain release: the recording does not know who
// deleted it.
func TestEnderWordSaysReleasedOnlyOfARelease(t *testing.T) {
	for _, e := range []Ender{"", EndedByUnknown, EndedBySessionEnd, EndedByExpiry, EndedByClose, EndedByOperator} {
		if got := enderWord(e, EndReleasedOrForced); got == EndReleasedOrForced || got == EndReleased {
			t.Errorf("an ending by %q reads %q", e, got)
		}
	}
	if got := enderWord(EndedByRelease, EndReleasedOrForced); got != EndReleasedOrForced {
		t.Errorf("a node deleted while its session lived reads %q", got)
	}
	if got := enderWord(EndedByOperator, EndReleasedOrForced); got != EndForced {
		t.Errorf("the operator's force-release reads %q", got)
	}
}
