package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// frozenEvents: /t found with a holder (0, session 0x64) and a waiter (1);
// 0's member stops hearing from it (SIGSTOP), answers tell it silent from
// -30s, and its node goes with its session at 0, 1 then holding.
func frozenEvents() []zkwatch.Event {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	answer := func(d, silent time.Duration) zkwatch.Event {
		ev := storyServers(d, 100, 101)
		ci := ev.Clients[100]
		ci.Asked, ci.Silent = at(d-time.Second), silent
		ev.Clients[100] = ci
		return ev
	}
	return []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: at(-time.Minute)},
		storyLockAt(-50*time.Second, 0, 1),
		storyServers(-45*time.Second, 100, 101),
		answer(-30*time.Second, 12*time.Second),
		answer(-20*time.Second, 22*time.Second),
		storyLockAt(0, 1),
		storyServers(5*time.Second, 101),
	}
}

// A frozen holder's postmortem tells the silent-holder anomaly from when
// the members' answer told it to when its node went, and the frozen
// stretch in its hold: what a replay shows at each moment.
func TestTellStoryFrozenHolder(t *testing.T) {
	evs := frozenEvents()
	st := TellStory(evs, "/t", time.Time{}, time.Time{})
	var silent *StoryAnomaly
	for i, a := range st.Anomalies {
		if a.Kind == lockcore.AnomalySilentHolder {
			silent = &st.Anomalies[i]
		}
	}
	if silent == nil || !silent.Arose.Equal(t0.Add(-30*time.Second)) || !silent.Cleared.Equal(t0) || silent.Session != "0x64" {
		t.Fatalf("the silent holder's anomaly: %+v (all %+v)", silent, st.Anomalies)
	}
	// The replay's state agrees at every event.
	s := NewState()
	for _, ev := range evs {
		s.Apply(ev)
		shown := false
		if l := s.Locks["/t"]; l != nil {
			for _, a := range l.Anomalies {
				shown = shown || a.Kind == lockcore.AnomalySilentHolder
			}
		}
		told := !ev.At.Before(silent.Arose) && ev.At.Before(silent.Cleared)
		if shown != told {
			t.Errorf("at %s the replay shows silent-holder %v, the story %v", ev.At.Sub(t0), shown, told)
		}
	}
	if len(st.Holds) == 0 || st.Holds[0].Session != "0x64" {
		t.Fatalf("holds %+v", st.Holds)
	}
	h := st.Holds[0]
	want := []StoryFrozen{{From: t0.Add(-43 * time.Second), Seen: t0.Add(-30 * time.Second), Timeout: 30 * time.Second}}
	if fmt.Sprint(h.Frozen) != fmt.Sprint(want) {
		t.Errorf("frozen\n got %+v\nwant %+v", h.Frozen, want)
	}
}

// A holder past the long-held threshold is told long-held from the moment
// it crossed it, though no event came then, as a replay's cursor shows.
func TestTellStoryLongHeldBetweenEvents(t *testing.T) {
	l := lockOf("/t", 0, 1)
	l.LongHeldAfter = 90 * time.Second
	long := l.At(t0)
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventLock, At: t0, Path: "/t", Lock: long},
		{Kind: zkwatch.EventSynced, At: t0},
		storyServers(2*time.Minute, 100, 101),
	}
	st := TellStory(evs, "/t", time.Time{}, time.Time{})
	// Its hold was first seen at 0: it is known to have held past 90s
	// just after 90s.
	if len(st.Anomalies) != 1 || st.Anomalies[0].Kind != lockcore.AnomalyLongHeld ||
		st.Anomalies[0].Arose.Sub(t0) <= 90*time.Second || st.Anomalies[0].Arose.Sub(t0) > 90*time.Second+time.Millisecond {
		t.Errorf("anomalies %+v, want long-held from just after 90s", st.Anomalies)
	}
}
