package zkwatch_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// A plain ephemeral lock node that goes and comes back, again and again:
// the watcher keeps the lock, free while the node is gone, and shows each
// new holder, its watch re-armed every time.
func TestIntegrationPlainLockNodeComesAndGoes(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/app")
	lock := root + "/app/lock"
	take := func() int64 {
		c := zks.Connect(t)
		if _, err := c.Create(lock, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
		return c.SessionID()
	}
	holds := func(session int64) func(s *model.State) bool {
		return func(s *model.State) bool {
			l := s.Locks[lock]
			if l == nil || l.Recipe != lockcore.RecipeEphemeral {
				return false
			}
			if session == 0 {
				return l.Holders() == 0
			}
			return l.Holders() == 1 && l.Participants[0].Session == session
		}
	}
	first := take()
	const grace = 3 * time.Second
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root}, PlainGrace: grace})
	c.Until(t, "the first holder", holds(first))
	for i := range 5 {
		if err := admin.Delete(lock, -1); err != nil {
			t.Fatal(err)
		}
		c.Until(t, fmt.Sprintf("the lock free after release %d", i+1), holds(0))
		next := take()
		c.Until(t, fmt.Sprintf("holder %d", i+2), holds(next))
	}
	// Gone for good: free for the grace, then gone, so that locks named
	// per job do not pile up.
	if err := admin.Delete(lock, -1); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "the lock free after the last release", holds(0))
	freed := time.Now()
	c.Until(t, "the lock gone after its grace", func(s *model.State) bool { return s.Locks[lock] == nil })
	if d := time.Since(freed); d < grace/2 {
		t.Errorf("gone %s after its release, before its grace of %s", d, grace)
	}
	grants := 0
	for _, h := range c.State().History {
		if h.Lock == lock && h.Change == model.Granted {
			grants++
		}
	}
	if grants < 5 {
		t.Errorf("%d grants recorded for 5 hand-overs", grants)
	}
}
