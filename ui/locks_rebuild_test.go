package ui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestLocksRebuildKeepsOrder: the list taken in change by change, as the
// state's journal names them, is always the list sorted afresh, through
// new, changed and gone locks, denied paths, links that change many locks
// at once, each sort order and a filter.
func TestLocksRebuildKeepsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: sid(1)}})
	a := New(Options{State: s, Now: func() time.Time { return t0 }, Location: time.UTC})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	lock := func(i int) *lockcore.Lock { return benchLock(i, 1+rng.IntN(5)) }
	for round := range 300 {
		var evs []zkwatch.Event
		for range 1 + rng.IntN(6) {
			i := rng.IntN(60)
			switch r := rng.IntN(10); {
			case r < 6:
				l := lock(i)
				evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
			case r < 9:
				evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLockGone, At: t0, Path: fmt.Sprintf("/bench/service-%05d/lock", i)})
			default:
				evs = append(evs, zkwatch.Event{Kind: zkwatch.EventDenied, Path: fmt.Sprintf("/denied/%d", i)})
			}
		}
		a.Update(watchEventsMsg{events: evs})
		switch round {
		case 100:
			press(a, "s")
		case 150:
			s.SetLinks(map[int64]lockcore.Link{sid(3): {State: lockcore.LinkDisconnected}})
			a.gen++
			a.refresh()
		case 200:
			press(a, "/", "0", "1", "enter")
		case 250:
			press(a, "esc", "s")
		}
		got := rowPaths(a.locks.rows)
		full := a.locks
		full.rows, full.cache, full.sorted = nil, nil, rowsSort{}
		full.rebuild()
		if want := rowPaths(full.rows); !slices.Equal(got, want) {
			t.Fatalf("round %d, by %s: the list kept\n%v\nsorted afresh\n%v", round, lockOrders[a.locks.order], got, want)
		}
	}
}

func rowPaths(rows []*lockRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%s w%d h%d", r.path, r.waiters, r.holders)
	}
	return out
}
