package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// newToldApp is newOperateApp whose actions come back among its events,
// as the program merges them (model.ActionFeed): tell sends those made
// since it was last called.
func newToldApp(t *testing.T) (a *App, tell func()) {
	t.Helper()
	var told []lockcore.Action
	a, _, _ = newOperateApp(t, func(o *Options) { o.Actions.Told = func(act lockcore.Action) { told = append(told, act) } })
	return a, func() {
		evs := make([]zkwatch.Event, 0, len(told))
		for _, act := range told {
			evs = append(evs, model.ActionEvent(act))
		}
		told = nil
		send(a, watchEventsMsg{events: evs})
	}
}

// TestForceReleasedHolderIsFollowed: a holder force-released from the UI
// stays on the Sessions screen, marked, while its session is connected,
// and goes once its session is gone from every server.
func TestForceReleasedHolderIsFollowed(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a, tell := newToldApp(t)
			a.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			send(a, openLockMsg{path: "/locks/billing"})
			press(a, "D", "y")
			tell()
			// The node is gone from the next read of the lock.
			next := newTree("/locks/billing")
			next.kid(curator("lock-", 21, 18), sid(21), 12*60e9, "10.0.1.21")
			l := next.analyze(nil, longHeld)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}}})
			press(a, "esc", "2")
			if sc := screen(a); !lineWith(sc, "forced", "/locks/billing", "not told: may believe it holds") ||
				!strings.Contains(sc, "0x100008e2d9b0014") {
				t.Fatalf("the force-released holder is not followed:\n%s", sc)
			}
			golden(t, "sessions_forced_"+sz.name, a)

			// Every server answered, and none lists its session: it let go.
			clients := map[int64]zkwatch.ClientInfo{}
			for _, i := range []int{2, 3, 21} {
				clients[sid(i)] = zkwatch.ClientInfo{Session: sid(i), Client: fmt.Sprintf("10.0.0.%d:5000", i)}
			}
			asked := a.env.state.Forced[0].At().Add(time.Second)
			// An answer that still lists its session: connected, though it
			// owns no node now, and still followed.
			listing := map[int64]zkwatch.ClientInfo{sid(20): {Session: sid(20), Client: "10.0.2.0:50020", Server: "10.0.0.1:2181"}}
			for id, c := range clients {
				listing[id] = c
			}
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: asked, ClientsAsked: asked, Clients: listing,
				ClientsComplete: true}}})
			if sc := screen(a); !lineWith(sc, "0x100008e2d9b0014", "connected") || !lineWith(sc, "forced", "/locks/billing") {
				t.Fatalf("a force-released holder whose session is listed:\n%s", sc)
			}
			asked = asked.Add(time.Second)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: asked, ClientsAsked: asked, Clients: clients,
				ClientsComplete: true}}})
			if sc := screen(a); strings.Contains(sc, "forced") {
				t.Fatalf("still followed after its session went:\n%s", sc)
			}
		})
	}
}

// TestForceReleasedFollowedUntilItQueuesAgain: a new node of the session
// in that lock means its client let go and came back.
func TestForceReleasedFollowedUntilItQueuesAgain(t *testing.T) {
	a, tell := newToldApp(t)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D", "y")
	tell()
	if f := a.env.state.Forced; len(f) != 1 || f[0].Role != lockcore.RoleHolder || f[0].Lock != "/locks/billing" {
		t.Fatalf("forced: %+v", f)
	}
	next := newTree("/locks/billing")
	next.kid(curator("lock-", 21, 18), sid(21), 12*60e9, "10.0.1.21")
	next.kid(curator("lock-", 20, 30), sid(20), 1e9, "10.0.1.20") // the same session, a new node
	l := next.analyze(nil, longHeld)
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}}})
	if f := a.env.state.Forced; len(f) != 0 {
		t.Fatalf("still followed after it queued again: %+v", f)
	}
}

// TestDeletedWhileTalkingIsNotTold: a holder's node deleted while its
// session lived, by no action of this zklocks, reads rel/forced in the
// event log, and, while its session talks on, the Sessions screen says
// its client may believe it holds.
func TestDeletedWhileTalkingIsNotTold(t *testing.T) {
	a := newTestApp(t, 120, 40)
	answer := func(at time.Time) zkwatch.Event {
		clients := map[int64]zkwatch.ClientInfo{}
		for _, i := range []int{2, 3, 20, 21} {
			clients[sid(i)] = zkwatch.ClientInfo{Session: sid(i), Client: fmt.Sprintf("10.0.0.%d:5000", i), Timeout: 30 * time.Second,
				Asked: at.Add(-time.Second), Heard: at.Add(-2 * time.Second)}
		}
		return zkwatch.Event{Kind: zkwatch.EventServers, At: at, ClientsAsked: at.Add(-time.Second), Clients: clients, ClientsComplete: true}
	}
	lb, la := billingHolderGone()
	send(a, watchEventsMsg{events: []zkwatch.Event{
		{Kind: zkwatch.EventLock, At: t0.Add(time.Second), Path: lb.Path, Lock: lb}, answer(t0.Add(2 * time.Second)),
		{Kind: zkwatch.EventLock, At: t0.Add(3 * time.Second), Path: la.Path, Lock: la}, answer(t0.Add(5 * time.Second))}})
	press(a, "3")
	if sc := screen(a); !lineWith(sc, "rel/forced", "/locks/billing") {
		t.Fatalf("the event log does not say released or forced:\n%s", sc)
	}
	press(a, "2")
	if sc := screen(a); !lineWith(sc, "deleted", "/locks/billing", "not told: may believe it holds") {
		t.Fatalf("the Sessions screen does not follow the holder deleted while it talked:\n%s", sc)
	}
}

// TestLoggedForceReleaseReadsForced: a transaction log that says another
// session deleted the holder's node (a replay of a data directory) reads
// "forced" in the event log, never "released".
func TestLoggedForceReleaseReadsForced(t *testing.T) {
	a := newTestApp(t, 120, 40)
	lb, la := billingHolderGone()
	gone := lb.Participants[0]
	end := zkwatch.NodeEnd{Path: gone.Path, Czxid: gone.Token, By: sid(3), At: t0.Add(3 * time.Second), How: zkwatch.EndDeletedByOther}
	send(a, watchEventsMsg{events: []zkwatch.Event{
		{Kind: zkwatch.EventLock, At: t0.Add(time.Second), Path: lb.Path, Lock: lb},
		{Kind: zkwatch.EventLock, At: t0.Add(3 * time.Second), Path: la.Path, Lock: la, Ends: []zkwatch.NodeEnd{end}}}})
	press(a, "3")
	if sc := screen(a); !lineWith(sc, "forced", "/locks/billing") || lineWith(sc, "released", "/locks/billing") {
		t.Fatalf("a force-release the log names is not read as one:\n%s", sc)
	}
}

// billingHolderGone is /locks/billing with its holder (session 20) and a
// waiter, then without the holder.
func billingHolderGone() (before, after *lockcore.Lock) {
	b := newTree("/locks/billing")
	b.kid(curator("lock-", 20, 17), sid(20), 12*60e9, "10.0.1.20")
	b.kid(curator("lock-", 21, 18), sid(21), 12*60e9, "10.0.1.21")
	a := newTree("/locks/billing")
	a.kid(curator("lock-", 21, 18), sid(21), 12*60e9, "10.0.1.21")
	return b.analyze(nil, longHeld), a.analyze(nil, longHeld)
}
