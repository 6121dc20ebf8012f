package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// storyEvents is the run of story (history_truth_test.go) as events: /t
// found with a holder (0) and a waiter (1), 2 joining while watched, 0's
// client dying and the operator force-releasing it, 1 releasing, 2's
// session expiring, 3 finding the lock free; then churn enough on
// another lock to push all of that out of the event log's bound.
func storyEvents(t *testing.T) []zkwatch.Event {
	t.Helper()
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	lockAt, servers := storyLockAt, storyServers
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: at(-time.Minute)},
		lockAt(-50*time.Second, 0, 1),
		servers(-45*time.Second, 100, 101),
		lockAt(-40*time.Second, 0, 1, 2),
		servers(-30*time.Second, 101, 102),
		servers(-27*time.Second, 101, 102),
	}
	audit := lockcore.Action{At: at(-20 * time.Second), User: "sre", Kind: lockcore.ActionForceRelease,
		Node: lockOf("/t", 0).Participants[0].Path, Token: 1, Owner: 0x64}
	evs = append(evs, lockAt(-20*time.Second, 1, 2), ActionEvent(audit), lockAt(-10*time.Second, 2),
		servers(-5*time.Second, 101), servers(-2*time.Second, 101), lockAt(0, 3),
		zkwatch.Event{Kind: zkwatch.EventConn, At: at(time.Second), Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: 7}})
	for i := range 4000 {
		l := lockOf("/other", i, i+1)
		l.ReadAt = at(2*time.Second + time.Duration(i)*time.Millisecond)
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: "/other", Lock: l})
	}
	return evs
}

// storyLockAt is a reading of /t, d after t0, holding the contenders of
// seqs.
func storyLockAt(d time.Duration, seqs ...int) zkwatch.Event {
	l := lockOf("/t", seqs...)
	l.ReadAt = t0.Add(d)
	return zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: "/t", Lock: l}
}

// storyServers is a complete members' answer, d after t0 and asked a
// second before, listing sessions (each with a 30 s timeout).
func storyServers(d time.Duration, sessions ...int64) zkwatch.Event {
	clients := map[int64]zkwatch.ClientInfo{}
	for _, id := range sessions {
		clients[id] = zkwatch.ClientInfo{Session: id, Server: "zk1:2181", Client: fmt.Sprintf("10.0.0.%d:5000", id-99), Timeout: 30 * time.Second}
	}
	return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(d), ClientsAsked: t0.Add(d - time.Second), ClientsComplete: true, Clients: clients}
}

func TestTellStory(t *testing.T) {
	evs := storyEvents(t)
	st := TellStory(evs, "/t", time.Time{}, time.Time{})
	if !st.Known || st.Recipe != lockOf("/t", 0).Recipe {
		t.Fatalf("known %v, recipe %q", st.Known, st.Recipe)
	}
	var holds []string
	for _, h := range st.Holds {
		holds = append(holds, fmt.Sprintf("%s %s %s %s", h.Session, h.Start, durWords(h.Held, h.AtLeast), h.End))
		if h.Session == "0x64" && (!strings.Contains(h.Audit, `"force-release"`) || !h.Disconnected.Equal(t0.Add(-27*time.Second))) {
			t.Errorf("the forced hold: %+v", h)
		}
	}
	want := []string{"0x64 first-seen ≥30s forced", "0x65 seen 10s released-or-forced", "0x66 seen 10s expired", "0x67 seen 5.999s ongoing"}
	if strings.Join(holds, "; ") != strings.Join(want, "; ") {
		t.Errorf("holds\n got %s\nwant %s", strings.Join(holds, "; "), strings.Join(want, "; "))
	}
	var waits []string
	for _, w := range st.Waits {
		d := durWords(w.Waited, w.AtLeast)
		if w.AtMost {
			d = "≤" + d
		}
		waits = append(waits, fmt.Sprintf("%s %s %s %s", w.Session, w.Start, d, w.End))
	}
	// 0 and 1 joined before the lock was found: their nodes' ctimes date
	// them; 0 was first seen holding, so its wait ended by then at most.
	want = []string{"0x64 ctime ≤10s granted", "0x65 ctime 40s granted", "0x66 seen 30s granted"}
	if strings.Join(waits, "; ") != strings.Join(want, "; ") {
		t.Errorf("waits\n got %s\nwant %s", strings.Join(waits, "; "), strings.Join(want, "; "))
	}
	if st.WaitTimes.Count != 2 || st.WaitTimes.Max != 30*time.Second || st.HoldTimes.Count != 2 || st.HoldTimes.P50 != 10*time.Second {
		t.Errorf("figures: waits %+v, holds %+v", st.WaitTimes, st.HoldTimes)
	}
	var conns []string
	for _, c := range st.Connection {
		conns = append(conns, c.At.Sub(t0).String()+" "+c.Session)
	}
	if strings.Join(conns, ", ") != "-27s 0x64, -2s 0x66, 1s " {
		t.Errorf("connection losses: %q", conns)
	}
}

// durWords is a duration to the millisecond, ≥ when it is at least that.
func durWords(d time.Duration, atLeast bool) string {
	s := d.Round(time.Millisecond).String()
	if atLeast {
		return "≥" + s
	}
	return s
}

// Anomalies are told as they arose and cleared.
func TestTellStoryAnomalies(t *testing.T) {
	mk := func(d time.Duration, kinds ...lockcore.AnomalyKind) zkwatch.Event {
		l := lockOf("/a", 0, 1)
		l.ReadAt = t0.Add(d)
		l.Anomalies = nil
		for _, k := range kinds {
			l.Anomalies = append(l.Anomalies, lockcore.Anomaly{Kind: k, Node: l.Participants[1].Node, Detail: string(k) + " here"})
		}
		return zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: "/a", Lock: l}
	}
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		mk(0), {Kind: zkwatch.EventSynced, At: t0},
		mk(time.Second, lockcore.AnomalyUnwatchedWaiter),
		mk(2*time.Second, lockcore.AnomalyUnwatchedWaiter, lockcore.AnomalyWaitCycle),
		mk(3*time.Second, lockcore.AnomalyWaitCycle),
	}
	st := TellStory(evs, "/a", time.Time{}, time.Time{})
	var got []string
	for _, a := range st.Anomalies {
		cleared := "-"
		if !a.Cleared.IsZero() {
			cleared = a.Cleared.Sub(t0).String()
		}
		got = append(got, fmt.Sprintf("%s %s %s", a.Kind, a.Arose.Sub(t0), cleared))
	}
	want := fmt.Sprintf("%s 1s 3s, %s 2s -", lockcore.AnomalyUnwatchedWaiter, lockcore.AnomalyWaitCycle)
	if strings.Join(got, ", ") != want {
		t.Errorf("anomalies\n got %s\nwant %s", strings.Join(got, ", "), want)
	}
}
