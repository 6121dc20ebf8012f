package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// story plays, on /t, a lock found with a holder (0) and a waiter (1)
// already queued, a contender (2) joining while watched, the holder's
// client dying (its session connected nowhere), the operator
// force-releasing it, the waiter releasing, and 2's session expiring.
func story(t *testing.T) *State {
	t.Helper()
	s := NewState()
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	lockAt := func(d time.Duration, seqs ...int) zkwatch.Event {
		l := lockOf("/t", seqs...)
		l.ReadAt = at(d)
		return zkwatch.Event{Kind: zkwatch.EventLock, At: at(d), Path: "/t", Lock: l}
	}
	servers := func(d time.Duration, sessions ...int64) zkwatch.Event {
		clients := map[int64]zkwatch.ClientInfo{}
		for _, id := range sessions {
			clients[id] = zkwatch.ClientInfo{Session: id, Server: "zk1:2181", Client: fmt.Sprintf("10.0.0.%d:5000", id-99), Timeout: 30 * time.Second}
		}
		return zkwatch.Event{Kind: zkwatch.EventServers, At: at(d), ClientsAsked: at(d - time.Second), ClientsComplete: true, Clients: clients}
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: at(-time.Minute)})
	s.Apply(lockAt(-50*time.Second, 0, 1)) // found after the sync: seen late
	s.Apply(servers(-45*time.Second, 100, 101))
	s.Apply(lockAt(-40*time.Second, 0, 1, 2))
	s.Apply(servers(-30*time.Second, 101, 102))
	s.Apply(servers(-27*time.Second, 101, 102)) // a second look: 100 is connected nowhere
	audit := lockcore.Action{At: at(-20 * time.Second), User: "sre", Kind: lockcore.ActionForceRelease,
		Node: s.Locks["/t"].Participants[0].Path, Token: 1, Owner: 0x64}
	s.Apply(lockAt(-20*time.Second, 1, 2)) // the watcher saw it go before the action was told
	s.Apply(ActionEvent(audit))
	s.Apply(lockAt(-10*time.Second, 2))
	s.Apply(servers(-5*time.Second, 101))
	s.Apply(servers(-2*time.Second, 101))
	s.Apply(lockAt(0, 3))
	return s
}

func TestHistoryEndsAndSightings(t *testing.T) {
	s := story(t)
	var got []string
	for _, h := range s.History {
		e := fmt.Sprintf("%s:%d", h.Change, h.Seq)
		if h.Seen {
			e += " seen"
		}
		if h.Reconstructed {
			e += " reconstructed"
		}
		if h.EndedBy != "" {
			e += " by " + string(h.EndedBy)
		}
		if h.Action != nil && h.Action.Kind != lockcore.ActionForceRelease {
			t.Errorf("action %+v", h.Action)
		}
		got = append(got, e)
	}
	want := []string{"joined:0 reconstructed", "granted:0 seen", "joined:1 reconstructed", "joined:2", "disconnected:0",
		"released:0 by operator", "granted:1", "released:1 by release", "granted:2", "disconnected:2",
		"released:2 by expiry", "joined:3", "granted:3"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("history\n got %s\nwant %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

func TestTimelineCountsOnlyWhatWasSeen(t *testing.T) {
	s := story(t)
	tl := s.Timeline("/t", t0.Add(-time.Minute), t0)
	// 1 joined before it was seen: its wait is not known. 2 waited 30 s
	// (-40 s → -10 s). 0's hold began before it was seen; 1 held 10 s
	// (-20 s → -10 s), 2 held 10 s until its session expired; 3 found
	// the lock free.
	if fmt.Sprint(tl.Waits) != "[0s 30s]" || fmt.Sprint(tl.Holds) != "[10s 10s]" {
		t.Fatalf("waits %v, holds %v", tl.Waits, tl.Holds)
	}
	for _, sp := range tl.Spans {
		switch {
		case sp.Hold && sp.Session == 100:
			if !sp.Seen || sp.Granted || !sp.Disconnected.Equal(t0.Add(-27*time.Second)) || sp.EndedBy != EndedByOperator {
				t.Errorf("the first holder's span: %+v", sp)
			}
		case sp.Hold && sp.Session == 102:
			if sp.Disconnected.IsZero() || sp.EndedBy != EndedByExpiry {
				t.Errorf("the expired holder's span: %+v", sp)
			}
		}
	}
}
