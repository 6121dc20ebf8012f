package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestGoldenFrozenHolder: a kazoo holder whose process was stopped. Its
// member's answers show it silent while the lock row, the detail and the
// Sessions screen say so with when it expires; then its node goes and a
// complete answer lists it nowhere: the log says expired, and the Sessions
// screen and the detail keep it as not told, with both fencing tokens.
func TestGoldenFrozenHolder(t *testing.T) {
	a := newTestApp(t, 80, 24)
	frozen := newTree("/locks/frozen")
	frozen.kid(kazoo("__lock__", 190, 0), sid(190), 3*time.Minute, "worker-190")
	frozen.kid(kazoo("__lock__", 191, 1), sid(191), time.Minute, "worker-191")
	frozen.t.ReadAt = t0.Add(-time.Minute)
	addLock(a, frozen.analyze(nil, lockcore.Options{}))
	servers := func(at time.Duration, clients map[int64]zkwatch.ClientInfo) {
		for s, ci := range clients {
			ci.Asked = t0.Add(at - time.Second)
			clients[s] = ci
		}
		send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: t0.Add(at),
			ClientsAsked: t0.Add(at - time.Second), ClientsComplete: true, Clients: clients}}})
	}
	servers(-30*time.Second, everyOwner(a))
	silent := everyOwner(a)
	ci := silent[sid(190)]
	ci.Silent = 15 * time.Second
	silent[sid(190)] = ci
	servers(-5*time.Second, silent)

	l := a.env.state.Locks["/locks/frozen"]
	if k := a.env.state.Link(l.Participants[0].Session); k.Liveness() != lockcore.LiveSilent || lockcore.Worst(anomalyKindsOf(l)) != lockcore.AnomalySilentHolder {
		t.Fatalf("holder link %+v, anomalies %v: want silent, silent-holder", k, anomalyKindsOf(l))
	}
	press(a, "/", "f", "r", "o", "z", "enter")
	if sc := screen(a); !strings.Contains(sc, "silent-holder") {
		t.Fatalf("the lock row does not say silent-holder:\n%s", sc)
	}
	send(a, openLockMsg{path: "/locks/frozen"})
	golden(t, "detail_frozen_holder_80x24", a)
	press(a, "2")
	golden(t, "sessions_frozen_80x24", a)

	// The session expires: the holder's node goes, the waiter holds, and
	// the next complete answer lists the holder nowhere.
	next := newTree("/locks/frozen")
	next.t.Children = []lockcore.Node{frozen.t.Children[1]} // the same waiter's node, now holding
	next.t.ReadAt = t0.Add(-2 * time.Second)
	nl := next.analyze(nil, lockcore.Options{})
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0.Add(-2 * time.Second), Path: nl.Path, Lock: nl}}})
	gone := everyOwner(a)
	servers(0, gone)
	if len(a.env.state.Untold) != 1 || a.env.state.Untold[0].Session != sid(190) {
		t.Fatalf("untold %+v, want the frozen holder", a.env.state.Untold)
	}
	golden(t, "sessions_untold_80x24", a)
	send(a, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "sessions_untold_120x40", a)
	send(a, tea.WindowSizeMsg{Width: 80, Height: 24})
	send(a, openLockMsg{path: "/locks/frozen"})
	golden(t, "detail_untold_80x24", a)

	press(a, "esc", "3", "G", "k")
	sc := screen(a)
	for _, want := range []string{"silent", "expired", "expired: its session ended with its node"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("no %q in the event log:\n%s", want, sc)
		}
	}
	golden(t, "events_frozen_80x24", a)
	if h := a.env.state.History; h[len(h)-1].EndedBy != model.EndedByExpiry && h[len(h)-2].EndedBy != model.EndedByExpiry {
		t.Errorf("the log's last entries %+v", h[len(h)-2:])
	}
}
