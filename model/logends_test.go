package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// A transaction log's word on how a node went makes each ending exact,
// with no members' answer to wait for: the same session's delete is a
// release, another's is forced and names it, the session tracker's close
// an expiry with its timeout and last transaction, the client's a close.
func TestTellStoryTakesTheLogsEnds(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	node := func(seq int) string { return lockOf("/t", seq).Participants[0].Path }
	heard := at(-25 * time.Second)
	for _, c := range []struct {
		how       zkwatch.EndHow
		by        int64
		want      string
		deletedBy string
	}{
		{zkwatch.EndDeletedByOwner, 0x64, EndReleased, ""},
		{zkwatch.EndDeletedByOther, 0x99, EndForced, "0x99"},
		{zkwatch.EndExpired, 0x64, EndExpired, ""},
		{zkwatch.EndClosed, 0x64, EndClosed, ""},
	} {
		gone := storyLockAt(-10*time.Second, 1)
		gone.Ends = []zkwatch.NodeEnd{{Path: node(0), Czxid: 1, How: c.how, At: gone.At, By: c.by, Session: 0x64,
			Timeout: 10 * time.Second, LastHeard: heard}}
		evs := []zkwatch.Event{
			{Kind: zkwatch.EventConn, At: at(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
			{Kind: zkwatch.EventSynced, At: at(-time.Minute)},
			storyLockAt(-50*time.Second, 0, 1),
			gone,
		}
		st := TellStory(evs, "/t", time.Time{}, time.Time{})
		if len(st.Holds) < 2 {
			t.Fatalf("%s: holds %+v", c.how, st.Holds)
		}
		h := st.Holds[0]
		if h.End != c.want || h.DeletedBy != c.deletedBy || h.SessionTimeout != 10*time.Second || !h.LastHeard.Equal(heard) {
			t.Errorf("%s: hold %+v, want ended %q by %q", c.how, h, c.want, c.deletedBy)
		}
	}
}

// An end of another node (another czxid at the same path: a plain lock's
// earlier holder) says nothing of this one's.
func TestLogEndOfAnotherIncarnationIsNotTaken(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	gone := storyLockAt(-10*time.Second, 1)
	gone.Ends = []zkwatch.NodeEnd{{Path: lockOf("/t", 0).Participants[0].Path, Czxid: 77, How: zkwatch.EndExpired, At: gone.At}}
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: at(-time.Minute)},
		storyLockAt(-50*time.Second, 0, 1),
		gone,
	}
	st := TellStory(evs, "/t", time.Time{}, time.Time{})
	if h := st.Holds[0]; h.End == EndExpired {
		t.Errorf("hold %+v took another node's end", h)
	}
}
