package ui

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// TestEventsShowOwnConnection: zklocks' own connection lost and taken
// back, and the picture re-read, are lines of the Events screen, in
// words, at 80 columns.
func TestEventsShowOwnConnection(t *testing.T) {
	a := newTestApp(t, 80, 24)
	s := a.env.state
	session := s.Conn.Session
	send(a, watchEventsMsg{events: []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0.Add(1e9), Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: session}},
		{Kind: zkwatch.EventConn, At: t0.Add(2e9), Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "10.0.0.2:2181", Session: session}},
		{Kind: zkwatch.EventSynced, At: t0.Add(3e9)},
	}})
	press(a, "3")
	sc := screen(a)
	for _, want := range [][]string{
		{"03:00:01.000", "conn-lost", "our connection to 10.0.0.1:2181 lost"},
		{"03:00:02.000", "reconnected", "back on 10.0.0.2:2181, same session"},
		{"03:00:03.000", "re-read", "locks re-read"},
	} {
		if !lineHas(sc, want...) {
			t.Fatalf("no line with %q:\n%s", want, sc)
		}
	}
}

// TestEventsInTimeOrder: an entry learnt late (a join dated by its node's
// ctime, logged after later entries) is listed at its time, not where it
// was added.
func TestEventsInTimeOrder(t *testing.T) {
	a := newTestApp(t, 80, 24)
	s := a.env.state
	if len(s.History) < 2 {
		t.Fatal("the fixture's log is too short")
	}
	late := s.History[len(s.History)-1]
	late.At, late.Node = s.History[0].At.Add(-time.Minute), "late-0000000099"
	s.History = append(s.History, late)
	a.gen++
	a.refresh()
	press(a, "3")
	rows := a.events.rows
	for i := 1; i < len(rows); i++ {
		if s.History[rows[i]].At.Before(s.History[rows[i-1]].At) {
			t.Fatalf("row %d (%v) before row %d (%v)", i, s.History[rows[i]].At, i-1, s.History[rows[i-1]].At)
		}
	}
	if rows[0] != len(s.History)-1 {
		t.Fatalf("the entry learnt last, earliest of all, is not first: rows %v", rows)
	}
}
