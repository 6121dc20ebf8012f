package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// TestGoldenCostPersistent: the cost screen with the persistent recursive
// watch live through a flood (its rate, the CPU it takes, its queue, the
// overflow and the re-read it started), and on a member that closed the
// connection at addWatch, where discovery falls back and says so.
func TestGoldenCostPersistent(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			at := a.env.now().Add(-20 * time.Second)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventDiscovery, Discovery: zkwatch.Discovery{DumpAt: at, Candidates: 10_214,
				WalkedAt: at, WalkReads: 1_010_000, WalkRate: 2000, Watching: 10_107, WatchedDirs: 99,
				Persistent: zkwatch.PersistentWatch{Live: true, Server: "10.0.0.1:2181", Version: "3.8.0", Rate: 19_800,
					Busy: 31 * time.Millisecond, Queued: 4096, QueueMax: 4096, Overflows: 3, OverflowAt: at, Rereading: true, RereadReads: 5200, Readded: 1}}}}})
			press(a, "c")
			golden(t, "cost_persistent_"+sz.name, a)
			if text := screen(a); !strings.Contains(strings.Join(strings.Fields(text), " "), "queue overflowed 3×") {
				t.Errorf("the cost screen does not say the queue overflowed:\n%s", text)
			}
			press(a, "esc")
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventDiscovery, Discovery: zkwatch.Discovery{DumpAt: at, Candidates: 10_214,
				WalkedAt: at, WalkReads: 1_010_000, WalkRate: 2000, Watching: 10_107, WatchedDirs: 99, ElsewhereWithin: 5 * time.Second,
				Persistent: zkwatch.PersistentWatch{Off: true, QueueMax: 4096,
					Note: "10.0.0.1:2181 closed the connection at addWatch (a server older than 3.6 does)"}}}}})
			press(a, "c")
			golden(t, "cost_persistent_off_"+sz.name, a)
		})
	}
}
