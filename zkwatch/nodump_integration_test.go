package zkwatch_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationWithoutDumpLocksComeAsTheWalkFindsThem: on a server that
// answers srvr alone and has no AdminServer, the walk is the only way to
// find locks. The first sync does not wait for it: it comes while the walk
// goes on, the walk's progress is reported as it goes, and the locks it
// finds after the sync appear as it finds them.
func TestIntegrationWithoutDumpLocksComeAsTheWalkFindsThem(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithConfig("admin.enableServer=false"))
	admin := zks.Connect(t)
	mkdirs(t, admin, "/plain", "/locks")
	for i := range 300 {
		mkdirs(t, admin, fmt.Sprintf("/plain/n-%03d", i))
	}
	var locks []string
	for i := range 5 {
		p := fmt.Sprintf("/locks/l-%d", i)
		mkdirs(t, admin, p)
		contender(t, admin, p)
		locks = append(locks, p)
	}
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	c := watchtest.Watch(t, conn, zkwatch.WatchConfig{EnrichEvery: -1, WalkBurst: 20, WalkRate: 50})

	c.Until(t, "the first sync", func(s *model.State) bool { return !s.LastSync.IsZero() })
	atSync := c.State().Discovery
	if !atSync.Walking || atSync.Complete || atSync.DumpNote == "" {
		t.Fatalf("the first sync waited for the walk, or says nothing of dump: %+v", atSync)
	}
	c.Until(t, "the walk's progress while it goes on", func(s *model.State) bool {
		return s.Discovery.Walking && s.Discovery.WalkReads > atSync.WalkReads
	})
	c.Until(t, "every lock, and the walk's end", func(s *model.State) bool {
		for _, p := range locks {
			if !participants(p, 1)(s) {
				return false
			}
		}
		return s.Discovery.Complete
	})
	t.Logf("first sync after %d reads of the walk; the walk ended after %d", atSync.WalkReads, c.State().Discovery.WalkReads)
}
