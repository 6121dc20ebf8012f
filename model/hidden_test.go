package model

import (
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestKnownHiddenBetweenTableReads: a busy plain lock changes faster than
// the watch table is read. Between reads its hidden waiters are the last
// read's, as of that read, less a session that got the lock since.
func TestKnownHiddenBetweenTableReads(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: at, WatchesAt: at})
	plain := func(holder int64, gap string, hidden ...int64) *lockcore.Lock {
		src := lockcore.WatchesFromServer
		if gap != "" {
			src = lockcore.WatchesFromRecipe
		}
		return &lockcore.Lock{Path: "/naive/lock", Recipe: lockcore.RecipeEphemeral, WatchesSource: src, WatchesGap: gap,
			HiddenWaiters: hidden, ReadAt: at,
			Participants: []lockcore.Participant{{Node: "lock", Path: "/naive/lock", Role: lockcore.RoleHolder, Session: holder}}}
	}
	lockEv := func(l *lockcore.Lock) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: l.Path, Lock: l}
	}
	s.Apply(lockEv(plain(1, "", 2, 3, 4)))
	if _, ok := s.KnownHidden("/naive/lock"); ok {
		t.Fatal("the analysis tells its hidden waiters itself, yet a past reading is offered")
	}
	s.Apply(lockEv(plain(3, "the servers' watch table predates this lock's last change")))
	h, ok := s.KnownHidden("/naive/lock")
	if !ok || !slices.Equal(h.Sessions, []int64{2, 4}) || !h.At.Equal(at) {
		t.Fatalf("KnownHidden = %+v, %v; want sessions 2 and 4 as of %v", h, ok, at)
	}
	if _, ok := s.KnownHidden("/never/read"); ok {
		t.Fatal("a lock never read has known hidden waiters")
	}
}
