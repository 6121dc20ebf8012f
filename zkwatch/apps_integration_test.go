package zkwatch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/apptree"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationWatcherFollowsAnApplication watches a Hadoop HA lock:
// the breadcrumb beside it is read again when the new active rewrites it
// after fencing, so the unfenced anomaly goes without the lock changing.
func TestIntegrationWatcherFollowsAnApplication(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/ha", root+"/ha/ns1")
	active := zks.Connect(t)
	lock, crumb := root+"/ha/ns1/ActiveStandbyElectorLock", root+"/ha/ns1/ActiveBreadCrumb"
	if _, err := active.Create(lock, apptree.HDFSActiveNodeInfo("ns1", "nn2", "nn2.example.com"), zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Create(crumb, apptree.HDFSActiveNodeInfo("ns1", "nn1", "nn1.example.com"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root + "/ha"}})
	unfenced := func(s *model.State) bool {
		l := s.Locks[lock]
		return l != nil && l.Recipe == lockcore.RecipeHadoopHA && len(l.Anomalies) == 1 && l.Anomalies[0].Kind == lockcore.AnomalyUnfenced
	}
	c.Until(t, "the unfenced breadcrumb", unfenced)
	// The new active fenced nn1 and writes its own breadcrumb, with the
	// old one's version, as ActiveStandbyElector.writeBreadCrumbNode does.
	if _, err := active.Set(crumb, apptree.HDFSActiveNodeInfo("ns1", "nn2", "nn2.example.com"), 0); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "the breadcrumb naming the holder", func(s *model.State) bool {
		l := s.Locks[lock]
		return l != nil && len(l.Anomalies) == 0 && l.App != nil && hasNote(l.App, "names the holder")
	})
	if err := admin.Delete(crumb, 1); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "the breadcrumb gone", func(s *model.State) bool {
		l := s.Locks[lock]
		return l != nil && l.App != nil && hasNote(l.App, "no ActiveBreadCrumb")
	})
}

func hasNote(a *lockcore.App, text string) bool {
	for _, n := range a.Notes {
		if strings.Contains(n, text) {
			return true
		}
	}
	return false
}

// TestIntegrationWatcherRereadsRegistrations watches a Kafka controller
// while broker 2 registers again in a new session under the same name:
// the member is read again, not kept from the last read by its name.
func TestIntegrationWatcherRereadsRegistrations(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/k", root+"/k/brokers", root+"/k/brokers/ids")
	broker := func(c *zk.Conn, id string) {
		if _, err := c.Create(root+"/k/brokers/ids/"+id, []byte(`{"version":5,"host":"kafka`+id+`","port":9092}`), zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	b1, b2 := zks.Connect(t), zks.Connect(t)
	broker(b1, "1")
	broker(b2, "2")
	if _, err := b1.Create(root+"/k/controller", []byte(`{"version":2,"brokerid":1,"timestamp":"1700000000000","kraftControllerEpoch":-1}`),
		zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root + "/k"}})
	member := func(session int64) func(s *model.State) bool {
		return func(s *model.State) bool {
			l := s.Locks[root+"/k/controller"]
			return l != nil && l.App != nil && len(l.App.Members) == 1 && l.App.Members[0].Session == session
		}
	}
	c.Until(t, "broker 2 as a member", member(b2.SessionID()))
	// Broker 2 again, in a new session: its old registration gives way in
	// the same multi, so the name never leaves the listing.
	again := zks.Connect(t)
	if _, err := again.Multi(&zk.DeleteRequest{Path: root + "/k/brokers/ids/2", Version: -1},
		&zk.CreateRequest{Path: root + "/k/brokers/ids/2", Data: []byte(`{"version":5,"host":"kafka2b","port":9092}`), Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral}); err != nil {
		t.Fatal(err)
	}
	c.Until(t, "broker 2's new session", member(again.SessionID()))
}
