package zkwatch_test

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationWatchTableReadOnceLocksAreFound: the servers' watch table
// is read again right after locks are found, not a period later: with a
// period of an hour, a lock found after the first reading is still judged
// by the servers' table (watches: server), never left to the recipes'
// rules while the table can be read.
func TestIntegrationWatchTableReadOnceLocksAreFound(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, "/found")
	contender(t, admin, "/found")
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}),
		zkwatch.WatchConfig{Roots: []string{"/found"}, EnrichEvery: time.Hour, WatchMode: zkwatch.WatchesServer})
	c.Until(t, "the lock judged by the servers' table", func(s *model.State) bool {
		l := s.Locks["/found"]
		return l != nil && l.WatchesSource == lockcore.WatchesFromServer
	})
	// A lock found later, within the same period.
	mkdirs(t, admin, "/found/later")
	contender(t, admin, "/found/later")
	c.Until(t, "the later lock judged by the servers' table", func(s *model.State) bool {
		l := s.Locks["/found/later"]
		return l != nil && l.WatchesSource == lockcore.WatchesFromServer
	})
}
