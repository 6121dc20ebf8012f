package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// storyEvents is /locks/story: found with a holder (0) and a waiter (1)
// already queued, a contender (2) joining while watched, the holder's
// client dying (connected nowhere), the operator force-releasing it, the
// waiter releasing, and 2's session still disconnected.
func storyEvents() []zkwatch.Event {
	b := newTree("/locks/story")
	all := make([]lockcore.Node, 3)
	for i := range all {
		all[i] = b.node(curator("lock-", 110+i, i), sid(110+i), time.Duration(60-10*i)*time.Second, "10.0.1.1")
	}
	lockAt := func(d time.Duration, idx ...int) zkwatch.Event {
		t := lockcore.Tree{Path: "/locks/story", ReadAt: t0.Add(d)}
		for _, i := range idx {
			t.Children = append(t.Children, all[i])
		}
		l := lockcore.Analyze(t, nil, longHeld)
		return zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(d), Path: l.Path, Lock: &l}
	}
	servers := func(d time.Duration, owners ...int) zkwatch.Event {
		clients := map[int64]zkwatch.ClientInfo{}
		for _, i := range owners {
			s := sid(110 + i)
			clients[s] = zkwatch.ClientInfo{Session: s, Server: "10.0.0.1:2181", Client: fmt.Sprintf("10.0.1.%d:4%04d", 10+i, i), Timeout: 30 * time.Second}
		}
		return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(d), ClientsAsked: t0.Add(d - time.Second), ClientsComplete: true, Clients: clients}
	}
	audit := lockcore.Action{At: t0.Add(-20 * time.Second), User: "sre", Server: "10.0.0.1:2181", Session: 0x100008e2d9b0001,
		Kind: lockcore.ActionForceRelease, Node: "/locks/story/" + all[0].Name, Token: all[0].Stat.Czxid, Owner: sid(110)}
	return []zkwatch.Event{
		lockAt(-48*time.Second, 0, 1),
		servers(-45*time.Second, 0, 1),
		lockAt(-40*time.Second, 0, 1, 2),
		servers(-30*time.Second, 1, 2),
		servers(-27*time.Second, 1, 2), // a second look: 0 is connected nowhere
		model.ActionEvent(audit),
		lockAt(-20*time.Second, 1, 2),
		lockAt(-10*time.Second, 2),
		servers(-5*time.Second, 1),
		servers(-2*time.Second, 1),
	}
}

// TestGoldenHistoryTruth: the event log says who or what ended each hold,
// marks the times first seen late (≤) and a holder's disconnection, and
// shows the operator's audit line; the timeline draws the disconnected
// holder with ▒ and counts only what was seen.
func TestGoldenHistoryTruth(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			send(a, watchEventsMsg{events: storyEvents()})
			press(a, "3")
			sc := screen(a)
			for _, want := range []string{"joined*", "disconnected", "forced", "rel/forced"} {
				if !strings.Contains(sc, want) {
					t.Fatalf("no %q in the event log:\n%s", want, sc)
				}
			}
			for i := 0; i < 10 && !strings.Contains(screen(a), "audit: "); i++ {
				press(a, "k")
			}
			golden(t, "events_story_"+sz.name, a)

			press(a, "1", "/", "s", "t", "o", "r", "y", "enter", "4")
			sc = screen(a)
			if !strings.Contains(sc, glyphGone) || !strings.Contains(sc, "holder disconnected") {
				t.Fatalf("the disconnected holder is not drawn apart:\n%s", sc)
			}
			golden(t, "timeline_story_"+sz.name, a)
		})
	}
}
