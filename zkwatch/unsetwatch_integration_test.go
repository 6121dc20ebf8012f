package zkwatch_test

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationWaiterJudgedAtTheTableAfterItsOwn: a waiter whose
// session never sets a watch is first shown with its watch unknown (the
// first table newer than its node may have been read before its client
// set its watch), and flagged unwatched by the next table: the watch
// tables' stamps still catch a waiter that nothing will wake.
func TestIntegrationWaiterJudgedAtTheTableAfterItsOwn(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/unset")
	contender(t, admin, "/unset")
	feed := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}),
		zkwatch.WatchConfig{Roots: []string{"/unset"}, EnrichEvery: 200 * time.Millisecond, WatchMode: zkwatch.WatchesServer})
	feed.UntilEvent(t, "the lock judged by the servers' table", func(ev zkwatch.Event) bool {
		return ev.Kind == zkwatch.EventLock && ev.Path == "/unset" && ev.Lock.WatchesSource == lockcore.WatchesFromServer
	})

	waiter := contender(t, zks.Connect(t), "/unset")
	seen := func(ev zkwatch.Event) *lockcore.Participant {
		if ev.Kind != zkwatch.EventLock || ev.Path != "/unset" || ev.Lock.WatchesSource != lockcore.WatchesFromServer {
			return nil
		}
		for i, p := range ev.Lock.Participants {
			if p.Path == waiter {
				return &ev.Lock.Participants[i]
			}
		}
		return nil
	}
	first := feed.UntilEvent(t, "the waiter judged by a table newer than its node", func(ev zkwatch.Event) bool { return seen(ev) != nil })
	if p := seen(first); !p.WatchMaybeUnset() || p.Watches != nil {
		t.Fatalf("by the first table newer than its node, the waiter is not unknown: %+v", *p)
	}
	for _, a := range first.Lock.Anomalies {
		if a.Kind == lockcore.AnomalyUnwatchedWaiter {
			t.Fatalf("the first table newer than the waiter's node flagged it: %s", a.Detail)
		}
	}
	feed.UntilEvent(t, "the waiter flagged unwatched by a later table", func(ev zkwatch.Event) bool {
		if p := seen(ev); p == nil || p.WatchesUnknown {
			return false
		}
		for _, a := range ev.Lock.Anomalies {
			if a.Kind == lockcore.AnomalyUnwatchedWaiter && a.Node == seen(ev).Node {
				return true
			}
		}
		return false
	})
}
