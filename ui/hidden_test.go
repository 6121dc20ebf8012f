package ui

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestDetailKeepsKnownHiddenWaiters: between two reads of the watch
// table, a busy plain lock's detail lists the hidden waiters the last
// read found, as of that read, rather than "unknown".
func TestDetailKeepsKnownHiddenWaiters(t *testing.T) {
	a := newTestApp(t, 80, 24)
	plain := func(holder int64, gap string, hidden ...int64) *lockcore.Lock {
		src := lockcore.WatchesFromServer
		if gap != "" {
			src = lockcore.WatchesFromRecipe
		}
		return &lockcore.Lock{Path: "/naive/lock", Recipe: lockcore.RecipeEphemeral, WatchesSource: src, WatchesGap: gap,
			HiddenWaiters: hidden, ReadAt: t0,
			Participants: []lockcore.Participant{{Node: "lock", Path: "/naive/lock", Role: lockcore.RoleHolder, Session: holder}}}
	}
	send(a, watchEventsMsg{events: []zkwatch.Event{
		{Kind: zkwatch.EventServers, At: t0, WatchesAt: t0, Servers: a.env.state.Servers},
		{Kind: zkwatch.EventLock, At: t0, Path: "/naive/lock", Lock: plain(0x11, "", 0x12, 0x13, 0x14)},
		{Kind: zkwatch.EventLock, At: t0, Path: "/naive/lock", Lock: plain(0x13, "the servers' watch table predates this lock's last change")},
	}})
	send(a, openLockMsg{path: "/naive/lock"})
	sc := screen(a)
	if !strings.Contains(sc, "2 waiters as of the watch table read at 03:00:00") || !strings.Contains(sc, "0x12") ||
		!strings.Contains(sc, "0x14") || strings.Contains(sc, "waiters unknown") {
		t.Fatalf("the detail:\n%s", sc)
	}
}
