package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkFirstSync: the UI taking in a first sync of 10,000 locks and
// drawing a frame after each batch. The watcher's reader hands over what
// is waiting, up to maxBatch: a UI that keeps up takes the locks a few at
// a time as the walk finds them ("trickle", batches of 8), one that falls
// behind in full batches.
func BenchmarkFirstSync(b *testing.B) {
	evs := make([]zkwatch.Event, 0, 10001)
	for i := 0; i < 10000; i++ {
		l := benchLock(i, 6)
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
	evs = append(evs, zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
	for _, batch := range []int{1, 8, maxBatch} {
		b.Run(fmt.Sprintf("batch%d", batch), func(b *testing.B) {
			for range b.N {
				s := model.NewState()
				s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: sid(1)}})
				a := New(Options{State: s, Now: func() time.Time { return t0 }, Location: time.UTC, Profile: termenv.ANSI256})
				a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
				for i := 0; i < len(evs); i += batch {
					a.Update(watchEventsMsg{events: evs[i:min(i+batch, len(evs))]})
					_ = a.View()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/sync")
		})
	}
}
