package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// benchLock is a Curator mutex at /bench/<i> with n contenders.
func benchLock(i, n int) *lockcore.Lock {
	b := newTree(fmt.Sprintf("/bench/service-%05d/lock", i))
	for j := 0; j < n; j++ {
		b.kid(curator("lock-", i*7+j, j), sid(i*7+j), time.Duration(n-j)*time.Minute, "10.1.2.3")
	}
	return b.analyze(nil, lockcore.Options{LongHeld: time.Hour})
}

// benchApp is an App, in colour, on a synced state of n locks.
func benchApp(b *testing.B, n, w, h int) *App {
	b.Helper()
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: sid(1)}})
	for i := 0; i < n; i++ {
		l := benchLock(i, 1+i%5)
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
	a := New(Options{State: s, Now: func() time.Time { return t0 }, Location: time.UTC, Profile: termenv.ANSI256})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

func msPerOp(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// BenchmarkViewLocks: one frame of the locks screen with 10,000 locks
// (target: under 2 ms).
func BenchmarkViewLocks(b *testing.B) {
	for _, sz := range sizes {
		b.Run("10000locks/"+sz.name, func(b *testing.B) {
			a := benchApp(b, 10000, sz.w, sz.h)
			press(a, "pgdown")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = a.View()
			}
			msPerOp(b)
		})
	}
}

// BenchmarkViewDetail: one frame of a lock's detail with 1,000
// participants, cursor on a waiter halfway down the queue (target: under
// 2 ms); and a cursor move there, which redraws its chain.
func BenchmarkViewDetail(b *testing.B) {
	for _, sz := range sizes {
		a := benchApp(b, 10, sz.w, sz.h)
		big := benchLock(99999, 1000)
		send(a, lockEvents(big))
		send(a, openLockMsg{path: big.Path, node: big.Participants[500].Path})
		b.Run("1000participants/"+sz.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = a.View()
			}
			msPerOp(b)
		})
		b.Run("1000participants-move/"+sz.name, func(b *testing.B) {
			up, down := keyMsg("k"), keyMsg("j")
			for i := 0; i < b.N; i++ {
				k := down
				if i%2 == 1 {
					k = up
				}
				a.Update(k)
				_ = a.View()
			}
			msPerOp(b)
		})
	}
}

// BenchmarkKeyToFrame: a key press and the frame after it on the locks
// screen (10,000 locks) while events stream at 1,000 a second: 1,000 lock
// events arrive between frames, in batches of up to 256 as waitForEvents
// makes them (target: under 16 ms).
//
//   - key+frame: the key and the frame only, the events applied before.
//   - behind-a-batch: a key that arrives just behind a full batch waits for
//     it: the batch, the key and the frame.
//   - a-second-of-events: all 1,000 events, the key and the frame.
//
// The /log-below-cap variants empty the event log (model.State.History)
// before each round, untimed, to tell what the UI costs from what
// trimming a full log costs the model.
func BenchmarkKeyToFrame(b *testing.B) {
	const perFrame = 1000
	// Two versions of each of 1,000 locks, so that every event changes
	// its lock: one more waiter, one fewer.
	versions := [2][]*lockcore.Lock{}
	for v := range versions {
		for i := 0; i < perFrame; i++ {
			versions[v] = append(versions[v], benchLock(i*10, 2+v+i%5))
		}
	}
	batches := func(round int) []watchEventsMsg {
		var out []watchEventsMsg
		var evs []zkwatch.Event
		for _, l := range versions[round%2] {
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
			if len(evs) == maxBatch {
				out, evs = append(out, watchEventsMsg{events: evs}), nil
			}
		}
		return append(out, watchEventsMsg{events: evs})
	}
	keys := []tea.KeyMsg{keyMsg("j"), keyMsg("k")}
	for _, name := range []string{"key+frame", "behind-a-batch", "a-second-of-events"} {
		for _, emptyLog := range []bool{false, true} {
			sub := name
			if emptyLog {
				sub += "/log-below-cap"
			}
			b.Run(sub, func(b *testing.B) {
				a := benchApp(b, 10000, 120, 40)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if emptyLog {
						a.env.state.History = nil
					}
					msgs := batches(i)
					untimed := map[string]int{"key+frame": len(msgs), "behind-a-batch": len(msgs) - 1, "a-second-of-events": 0}[name]
					// The last batch is the full one that the key waits behind.
					msgs[0], msgs[len(msgs)-1] = msgs[len(msgs)-1], msgs[0]
					for _, m := range msgs[:untimed] {
						a.Update(m)
					}
					b.StartTimer()
					for _, m := range msgs[untimed:] {
						a.Update(m)
					}
					a.Update(keys[i%2])
					_ = a.View()
				}
				msPerOp(b)
			})
		}
	}
}

// BenchmarkIdleSecond: what one idle second costs the UI on the locks
// screen with 10,000 locks: the one-second tick (its long-held check) and
// the frame after it, the clock moving on a second per round so that holds
// age. "idle": nothing changes in ZooKeeper. "one-lock-changes", the
// baseline: one lock event a second, after which every lock is judged
// again, as every tick did before AgeTo kept its steady span. A ms/second
// of 10 is 1 % of a core.
func BenchmarkIdleSecond(b *testing.B) {
	for _, changing := range []bool{false, true} {
		name := "idle"
		if changing {
			name = "one-lock-changes"
		}
		b.Run(name, func(b *testing.B) {
			now := t0
			s := model.NewState()
			s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: sid(1)}})
			var locks []*lockcore.Lock
			for i := 0; i < 10000; i++ {
				l := benchLock(i, 1+i%5)
				locks = append(locks, l)
				s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
			}
			s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
			a := New(Options{State: s, Now: func() time.Time { return now }, Location: time.UTC, Profile: termenv.ANSI256})
			a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				now = now.Add(time.Second)
				if changing {
					l := locks[i%len(locks)]
					a.Update(watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLock, At: now, Path: l.Path, Lock: l}}})
				}
				a.Update(tickMsg(now))
				_ = a.View()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/second")
		})
	}
}
