package apptree

import (
	"fmt"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// SolrJoin makes c join the election at dir as Solr's LeaderElector does
// (an ephemeral sequential <session>-<id>-n_ node), and returns the node's
// name. It sets no watch: the caller watches the node before it.
func SolrJoin(t testing.TB, c *zk.Conn, dir, id string) string {
	t.Helper()
	return Base(Create(t, c, fmt.Sprintf("%s/%d-%s-n_", dir, c.SessionID(), id), nil, zk.FlagEphemeral|zk.FlagSequence))
}

// SolrOverseer builds SolrCloud's overseer election under base: node1
// (10.0.0.1:8983_solr) leads, node2 watches node1's election node, the
// leader node names node1's, and the overseer's queue holds one sequential
// item (no lock). It returns the two nodes' sessions and node1's election
// node.
func SolrOverseer(t testing.TB, zks *zktest.Server, base string) (first, second *zk.Conn, firstNode string) {
	t.Helper()
	admin := zks.Connect(t)
	for _, dir := range []string{base + "/overseer_elect/election", base + "/live_nodes", base + "/overseer/queue"} {
		MkdirAll(t, admin, dir)
	}
	first, second = zks.Connect(t), zks.Connect(t)
	Create(t, first, base+"/live_nodes/10.0.0.1:8983_solr", nil, zk.FlagEphemeral)
	Create(t, second, base+"/live_nodes/10.0.0.2:8983_solr", nil, zk.FlagEphemeral)
	Create(t, admin, base+"/overseer/queue/qn-", []byte(`{"operation":"state"}`), zk.FlagSequence)
	firstNode = SolrJoin(t, first, base+"/overseer_elect/election", "10.0.0.1:8983_solr")
	SolrJoin(t, second, base+"/overseer_elect/election", "10.0.0.2:8983_solr")
	Create(t, first, base+"/overseer_elect/leader", fmt.Appendf(nil, "{\n  \"id\":\"%s\"}", firstNode), zk.FlagEphemeral)
	if _, _, _, err := second.GetW(base + "/overseer_elect/election/" + firstNode); err != nil {
		t.Fatalf("apptree: solr watches the overseer's node: %v", err)
	}
	return first, second, firstNode
}

// SolrShard builds shard1 of collection c1 under base: core_node1 leads,
// registered in a multi with the bump of leaders/shard1 as
// ShardLeaderElectionContext does, and core_node2 watches its election
// node. It returns the leader's and the replica's sessions.
func SolrShard(t testing.TB, zks *zktest.Server, base string) (leader, replica *zk.Conn) {
	t.Helper()
	admin := zks.Connect(t)
	elect := base + "/collections/c1/leader_elect/shard1/election"
	MkdirAll(t, admin, elect)
	MkdirAll(t, admin, base+"/collections/c1/leaders/shard1")
	leader, replica = zks.Connect(t), zks.Connect(t)
	first := SolrJoin(t, leader, elect, "core_node1")
	SolrJoin(t, replica, elect, "core_node2")
	props := `{"core":"c1_shard1_replica_n1","core_node_name":"core_node1","base_url":"http://10.0.0.1:8983/solr","node_name":"10.0.0.1:8983_solr"}`
	if _, err := leader.Multi(
		&zk.CheckVersionRequest{Path: elect + "/" + first, Version: -1},
		&zk.CreateRequest{Path: base + "/collections/c1/leaders/shard1/leader", Data: []byte(props), Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral},
		&zk.SetDataRequest{Path: base + "/collections/c1/leaders/shard1", Data: nil, Version: -1},
	); err != nil {
		t.Fatalf("apptree: solr leader registration: %v", err)
	}
	if _, _, _, err := replica.GetW(elect + "/" + first); err != nil {
		t.Fatalf("apptree: solr replica watches the leader: %v", err)
	}
	return leader, replica
}
