package words

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationAdminDumpByRole: the AdminServer's dump lists every
// session's ephemeral nodes on any member, but the expiry times only on
// the leader, as servers.md says.
func TestIntegrationAdminDumpByRole(t *testing.T) {
	t.Parallel()
	ens := zktest.StartEnsemble(t, 3, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	members := ens.Members()
	leader := ens.Leader()
	c := members[(leader+1)%3].Connect(t)
	if _, err := c.Create("/lockdir", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create("/lockdir/lock-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	for i, m := range members {
		admin := &AdminServer{Port: m.AdminPort()}
		var eph Ephemerals
		at := map[int64]time.Time{}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := AdminStream(ctx, admin, m.Addr(), "dump", nil, func(key string, dec *json.Decoder) (bool, error) {
			if ok, err := AdminEphemerals(&eph, func(string) bool { return true }, func(string) bool { return true })(key, dec); ok {
				return ok, err
			}
			return AdminExpiry(at)(key, dec)
		})
		cancel()
		if err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
		if eph.Parents["/lockdir"].Count != 1 {
			t.Errorf("member %d: ephemerals %+v", i, eph)
		}
		_, scheduled := at[c.SessionID()]
		if scheduled != (i == leader) {
			t.Errorf("member %d (leader %d): expiry map %v", i, leader, at)
		}
	}
	// A word asked of a member whose AdminServer is not there is told
	// apart from one that failed.
	_, err := AdminStream(context.Background(), &AdminServer{Port: members[0].Port()}, members[0].Addr(), "cons", nil, AdminConnections(new([]Connection)))
	if !errors.Is(err, ErrAdminUnavailable) {
		t.Errorf("the client port asked as an AdminServer: %v, want ErrAdminUnavailable", err)
	}
}
