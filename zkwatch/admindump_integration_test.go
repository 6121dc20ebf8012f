package zkwatch_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationDumpByTheAdminServer: on a server that answers srvr alone
// by four-letter word and has its AdminServer on, the dump the first
// picture waits on comes from the AdminServer, read whole and then parsed,
// and names the owners of the contenders it lists: every lock is at the
// first sync with its holder's session, while the walk, paced far slower,
// is still under way.
func TestIntegrationDumpByTheAdminServer(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
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
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second, Admin: &words.AdminServer{Port: zks.AdminPort()}})
	c := watchtest.Watch(t, conn, zkwatch.WatchConfig{EnrichEvery: -1, WalkBurst: 20, WalkRate: 5, ReadLater: true})

	c.Until(t, "the first sync", func(s *model.State) bool { return !s.LastSync.IsZero() })
	c.Read(func(s *model.State) {
		if d := s.Discovery; d.DumpNote != "" || d.DumpAt.IsZero() || d.Complete {
			t.Fatalf("at the first sync the dump was not read, or the walk had ended: %+v", d)
		}
		for _, p := range locks {
			l := s.Locks[p]
			if l == nil || len(l.Participants) != 1 || l.Participants[0].Session != admin.SessionID() {
				t.Errorf("%s at the first sync: %+v, want its one contender of session %#x", p, l, admin.SessionID())
			}
		}
	})
	var dumps int
	for _, m := range c.Watcher().Costs().Snapshot() {
		for _, w := range m.Words {
			if w.Word == "dump" && w.Via == words.ViaAdmin && w.Bytes > 0 {
				dumps += w.Asks
			}
		}
	}
	if dumps == 0 {
		t.Errorf("no dump counted as the AdminServer's: %+v", c.Watcher().Costs().Snapshot())
	}
}
