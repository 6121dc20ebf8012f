package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// addLock sends a's watcher a new lock, read at t0.
func addLock(a *App, l *lockcore.Lock) {
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}}})
}

// everyOwner lists every session owning a contender, connected to one
// member with a 30-second timeout, less those in gone.
func everyOwner(a *App, gone ...int64) map[int64]zkwatch.ClientInfo {
	clients := map[int64]zkwatch.ClientInfo{}
	for _, l := range a.env.state.Locks {
		for _, p := range l.Participants {
			if p.Session == 0 {
				continue
			}
			clients[p.Session] = zkwatch.ClientInfo{Session: p.Session, Server: "10.0.0.1:2181",
				Client: fmt.Sprintf("10.0.9.%d:5%04d", p.Session%100, p.Session%10000), Timeout: 30 * time.Second}
		}
	}
	for _, s := range gone {
		delete(clients, s)
	}
	return clients
}

// TestGoldenDisconnectedHolder: a kazoo holder whose client was killed.
// Every member answered cons while it was connected, then again without
// it: the lock detail and the sessions screen say it is disconnected and
// when it expires, and the lock has a disconnected-holder anomaly.
func TestGoldenDisconnectedHolder(t *testing.T) {
	a := newTestApp(t, 80, 24)
	stuck := newTree("/locks/stuck")
	stuck.kid(kazoo("__lock__", 180, 0), sid(180), 3*time.Minute, "worker-180")
	stuck.kid(kazoo("__lock__", 181, 1), sid(181), time.Minute, "worker-181")
	stuck.t.ReadAt = t0.Add(-time.Minute) // before the members were asked
	addLock(a, stuck.analyze(nil, lockcore.Options{}))
	servers := func(at time.Duration, clients map[int64]zkwatch.ClientInfo) {
		send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: t0.Add(at),
			ClientsAsked: t0.Add(at - time.Second), ClientsComplete: true, Clients: clients}}})
	}
	servers(-20*time.Second, everyOwner(a))
	servers(-10*time.Second, everyOwner(a, sid(180)))
	servers(-5*time.Second, everyOwner(a, sid(180)))

	l := a.env.state.Locks["/locks/stuck"]
	if k := a.env.state.Link(l.Participants[0].Session); k.State != lockcore.LinkDisconnected || k.ExpiresWithin != 25*time.Second {
		t.Fatalf("holder link %+v, want disconnected, 25 s left at t0-5s", k)
	}
	if lockcore.Worst(anomalyKindsOf(l)) != lockcore.AnomalyDisconnectedHolder {
		t.Fatalf("anomalies %v, want disconnected-holder", anomalyKindsOf(l))
	}
	send(a, openLockMsg{path: "/locks/stuck"})
	golden(t, "detail_disconnected_holder_80x24", a)
	press(a, "2")
	golden(t, "sessions_disconnected_80x24", a)
	// Wider, the SERVER column has room for when it was last seen.
	send(a, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "sessions_disconnected_120x40", a)
}

func anomalyKindsOf(l *lockcore.Lock) []lockcore.AnomalyKind {
	var out []lockcore.AnomalyKind
	for _, x := range l.Anomalies {
		out = append(out, x.Kind)
	}
	return out
}

// TestGoldenDataDenied: contenders whose data the ACL denies. The queue,
// the participant's information and the node screen say the data is
// unreadable, never that it is empty.
func TestGoldenDataDenied(t *testing.T) {
	a := newTestApp(t, 80, 24)
	acl := newTree("/acl/open")
	for i := range 3 {
		acl.kid(fmt.Sprintf("_c_%s-lock-%010d", uuid(90+i), i), sid(90+i), time.Duration(3-i)*time.Minute, "")
		acl.t.Children[i].DataDenied = true
	}
	addLock(a, acl.analyze(nil, lockcore.Options{}))
	send(a, openLockMsg{path: "/acl/open", node: participant(t, a, "/acl/open", 0).Path})
	golden(t, "detail_data_denied_80x24", a)
	press(a, "enter")
	golden(t, "node_data_denied_80x24", a)
}

// TestGoldenWatchesUnknown: a kazoo 2.8 reader whose session's only watch
// in the lock is on a writer queued behind it. What it waits on cannot be
// told: the detail says so, and does not call it a waiter that watches
// nothing.
func TestGoldenWatchesUnknown(t *testing.T) {
	a := newTestApp(t, 80, 24)
	q := newTree("/app/kazoo/reports")
	q.kid(kazoo("__lock__", 100, 0), sid(100), 4*time.Minute, "worker-100")
	q.kid(kazoo("__rlock__", 101, 1), sid(101), 3*time.Minute, "worker-101")
	q.kid(kazoo("__lock__", 102, 2), sid(102), 2*time.Minute, "worker-102")
	q.kid(kazoo("__lock__", 103, 3), sid(101), time.Minute, "worker-101")
	abs := func(i int) string { return "/app/kazoo/reports/" + q.t.Children[i].Name }
	l := q.analyze(map[int64][]string{sid(100): {}, sid(101): {abs(2)}, sid(102): {abs(1)}}, lockcore.Options{})
	if !l.Participants[1].WatchesUnknown {
		t.Fatalf("fixture: the reader's watch should be unknown: %+v", l.Participants[1])
	}
	addLock(a, l)
	send(a, openLockMsg{path: "/app/kazoo/reports", node: participant(t, a, "/app/kazoo/reports", 1).Path})
	golden(t, "detail_watches_unknown_80x24", a)
	send(a, openLockMsg{path: "/app/kazoo/reports", node: participant(t, a, "/app/kazoo/reports", 2).Path})
	golden(t, "detail_watches_unknown_chain_80x24", a)
}
