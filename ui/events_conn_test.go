package ui

import (
	"testing"

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
