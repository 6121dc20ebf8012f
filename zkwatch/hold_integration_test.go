package zkwatch_test

import (
	"context"
	"path"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationHoldIsFromTheGrant queues a Curator waiter behind a holder
// for longer than the long-held threshold, then releases the holder: the
// watcher, which saw it wait, reports it holding since it was seen granted,
// not long-held; a one-shot read, which did not see it, can only say that
// it held at most its age, and says it only may be long-held.
func TestIntegrationHoldIsFromTheGrant(t *testing.T) {
	const threshold = time.Second
	zks, root := shared.Start(t), shared.Root(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	lock := root + "/hold/orders"
	curator.Acquire(t, "first", "mutex", lock)
	curator.WaitHeld(t, "first", 30*time.Second)
	waiter := curator.Acquire(t, "second", "mutex", lock)

	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root + "/hold"},
		Analysis: lockcore.Options{LongHeld: threshold}})
	c.Until(t, "the waiter queued", func(s *model.State) bool {
		l := s.Locks[lock]
		return l != nil && len(l.Participants) == 2 && l.Participants[1].Role == lockcore.RoleWaiter
	})
	// Queue longer than the threshold: the wait is not what is measured.
	time.Sleep(3 * threshold)
	curator.Release(t, "first")
	curator.WaitHeld(t, "second", 30*time.Second)
	c.Until(t, "the waiter holding", func(s *model.State) bool {
		l := s.Locks[lock]
		return l != nil && len(l.Participants) == 1 && l.Participants[0].Role == lockcore.RoleHolder
	})

	l := c.State().Locks[lock]
	p := l.Participants[0]
	if p.Path != waiter.Node || p.Age < 3*threshold {
		t.Fatalf("holder %s aged %s, want %s queued over %s", p.Path, p.Age, waiter.Node, 3*threshold)
	}
	if p.Hold.How != lockcore.HoldSeen || !p.Hold.Exact() || p.Hold.Max >= p.Age {
		t.Fatalf("a grant the watcher saw: hold %+v, age %s", p.Hold, p.Age)
	}
	if len(l.Anomalies) != 0 || len(l.MaybeLongHeld) != 0 {
		t.Fatalf("a waiter that has just got the lock is flagged: %+v %+v", l.Anomalies, l.MaybeLongHeld)
	}

	// show's read: no sighting; the predecessor's delete came after the
	// holder's creation, at a time ZooKeeper does not keep.
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tree, err := conn.ReadTree(ctx, lock)
	if err != nil {
		t.Fatal(err)
	}
	once := lockcore.Analyze(tree, nil, lockcore.Options{LongHeld: threshold})
	q := once.Participants[0]
	if path.Base(q.Path) != path.Base(waiter.Node) || q.Hold.Exact() || q.Hold.Min != 0 || q.Hold.Max != q.Age {
		t.Fatalf("a one-shot read: hold %+v, age %s", q.Hold, q.Age)
	}
	if len(once.Anomalies) != 0 || len(once.MaybeLongHeld) != 1 {
		t.Fatalf("a one-shot read flags %+v, maybe %+v", once.Anomalies, once.MaybeLongHeld)
	}
}
