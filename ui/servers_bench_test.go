package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkServersAnswer: what the members' answer (EventServers, every
// 5 s by default) costs the UI with 10,000 locks × 6 contenders, each
// owned by a session of its own, every session connected: working out
// each owner's link, and the frame after it. Nothing on screen changes.
func BenchmarkServersAnswer(b *testing.B) {
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: sid(1)}})
	clients := map[int64]zkwatch.ClientInfo{}
	for i := 0; i < 10000; i++ {
		l := benchLock(i, 6)
		for _, p := range l.Participants {
			clients[p.Session] = zkwatch.ClientInfo{Session: p.Session, Server: "a", Client: "10.0.0.1:1234"}
		}
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
	now := t0
	a := New(Options{State: s, Now: func() time.Time { return now }, Location: time.UTC, Profile: termenv.ANSI256})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	b.ResetTimer()
	for range b.N {
		now = now.Add(5 * time.Second)
		a.Update(watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: now, Clients: clients, ClientsComplete: true, ClientsAsked: now}}})
		_ = a.View()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/event")
}
