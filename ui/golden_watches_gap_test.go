package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestGoldenWatchesGap: a busy lock changed since the servers' watch
// table was read says so once, muted, next to where its watch targets
// come from, and not as a warning with the anomalies' "!".
func TestGoldenWatchesGap(t *testing.T) {
	busy := newTree("/locks/busy")
	for i := range 3 {
		busy.kid(curator("lock-", 90+i, 40+i), sid(90+i), time.Duration(3-i)*time.Second, "10.0.9.1")
	}
	abs := func(i int) string { return "/locks/busy/" + busy.t.Children[i].Name }
	table := lockcore.NewWatchTable(map[int64][]string{sid(91): {abs(0)}}).AsOf(busy.t.Children[1].Stat.Czxid)
	l := lockcore.Analyze(busy.settled().t, table, longHeld)
	if l.WatchesGap == "" {
		t.Fatal("the table predates the last contender, yet no gap")
	}
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: &l}}})
			send(a, openLockMsg{path: l.Path, node: l.Participants[2].Path})
			sc := screen(a)
			if strings.Contains(sc, "! warning") || strings.Count(sc, "predates") != 1 {
				t.Fatalf("the table's age is said once, as no warning:\n%s", sc)
			}
			golden(t, "detail_watches_gap_"+sz.name, a)
		})
	}
}
