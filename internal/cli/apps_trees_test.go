package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// The trees below are built as each application builds its own, with its
// create modes, data bytes and watches (see docs/applications.md for the
// sources), by plain go-zookeeper sessions standing in for its processes.

// appShowJSON mirrors the parts of `show --json` an application's lock adds.
type appShowJSON struct {
	Locks []struct {
		Path         string   `json:"path"`
		Recipe       string   `json:"recipe"`
		Holders      int      `json:"holders"`
		Waiters      int      `json:"waiters"`
		Hidden       []string `json:"hidden_waiters"`
		Participants []struct {
			Node     string  `json:"node"`
			Role     string  `json:"role"`
			Session  *string `json:"session"`
			Watches  *string `json:"watches"`
			Identity string  `json:"identity"`
			Mode     string  `json:"mode"`
			Note     string  `json:"note"`
			Eph      bool    `json:"ephemeral"`
			Children bool    `json:"watches_children"`
		} `json:"participants"`
		Anomalies []struct {
			Kind   string   `json:"kind"`
			Nodes  []string `json:"nodes"`
			Detail string   `json:"detail"`
		} `json:"anomalies"`
		App *struct {
			Name          string  `json:"name"`
			What          string  `json:"what"`
			Holder        string  `json:"holder"`
			HolderSession *string `json:"holder_session"`
			Token         *struct {
				Name    string `json:"name"`
				Path    string `json:"path"`
				Value   string `json:"value"`
				Version *int32 `json:"zk_version"`
			} `json:"token"`
			Members []struct {
				Session  *string `json:"session"`
				Identity string  `json:"identity"`
				Path     string  `json:"path"`
				Role     string  `json:"role"`
			} `json:"members"`
			Notes []string `json:"notes"`
		} `json:"app"`
	} `json:"locks"`
}

func showApp(t *testing.T, server string, path string) appShowJSON {
	t.Helper()
	out, errOut, code := run(t, "show", "--json", "--server", server, path)
	if code != exitOK {
		t.Fatalf("show exited %d: %s", code, errOut)
	}
	var s appShowJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Locks) != 1 {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	return s
}

func sid(c *zk.Conn) string { return fmt.Sprintf("0x%x", uint64(c.SessionID())) }

func mkdirs(t *testing.T, c *zk.Conn, paths ...string) {
	t.Helper()
	for _, p := range paths {
		parts := strings.Split(strings.Trim(p, "/"), "/")
		for i := range parts {
			dir := "/" + strings.Join(parts[:i+1], "/")
			if _, err := c.Create(dir, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && err != zk.ErrNodeExists {
				t.Fatalf("create %s: %v", dir, err)
			}
		}
	}
}

func create(t *testing.T, c *zk.Conn, path string, data []byte, flags int32) string {
	t.Helper()
	p, err := c.Create(path, data, flags, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
	return p
}

func watchExists(t *testing.T, c *zk.Conn, path string) {
	t.Helper()
	if _, _, _, err := c.ExistsW(path); err != nil {
		t.Fatalf("exists-watch %s: %v", path, err)
	}
}

func kafkaBrokerJSON(id int) []byte {
	return fmt.Appendf(nil, `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://kafka%d:9092"],"jmx_port":-1,"port":9092,"host":"kafka%d","version":5,"timestamp":"1700000000000"}`, id, id)
}

// kafkaTree builds a Kafka cluster's tree under base (its chroot): brokers
// 1 and 2 register; broker controllerID's session wins the controller
// election as KafkaZkClient does, in one multi with the epoch's bump; the
// other brokers watch /controller with exists. It returns the sessions.
func kafkaTree(t *testing.T, zks *zktest.Server, base string, controllerID int, registered ...int) map[int]*zk.Conn {
	t.Helper()
	admin := zks.Connect(t)
	mkdirs(t, admin, base+"/brokers/ids", base+"/config/changes", base+"/admin")
	create(t, admin, base+"/controller_epoch", []byte("5"), 0)
	// Notifications that end in sequence numbers and are no locks.
	create(t, admin, base+"/config/changes/config_change_", []byte(`{"version":2,"entity_path":"topics/t1"}`), zk.FlagSequence)
	sessions := map[int]*zk.Conn{}
	for _, id := range registered {
		c := zks.Connect(t)
		sessions[id] = c
		create(t, c, fmt.Sprintf("%s/brokers/ids/%d", base, id), kafkaBrokerJSON(id), zk.FlagEphemeral)
	}
	winner := sessions[controllerID]
	if winner == nil {
		winner = zks.Connect(t)
		sessions[controllerID] = winner
	}
	data := fmt.Appendf(nil, `{"version":2,"brokerid":%d,"timestamp":"1700000000000","kraftControllerEpoch":-1}`, controllerID)
	if _, err := winner.Multi(
		&zk.CreateRequest{Path: base + "/controller", Data: data, Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral},
		&zk.SetDataRequest{Path: base + "/controller_epoch", Data: []byte("6"), Version: 0},
	); err != nil {
		t.Fatalf("kafka controller election: %v", err)
	}
	for id, c := range sessions {
		if id != controllerID {
			watchExists(t, c, base+"/controller")
		}
	}
	return sessions
}

// hdfsActive is ActiveNodeInfo{ns, nnID, host, 8020, 8019}, as ZKFC writes it.
func hdfsActive(ns, nnID, host string) []byte {
	field := func(num byte, s string) []byte { return append([]byte{num<<3 | 2, byte(len(s))}, s...) }
	b := append(field(1, ns), field(2, nnID)...)
	b = append(b, field(3, host)...)
	return append(b, 0x20, 0xd4, 0x3e, 0x28, 0xd3, 0x3e)
}

// hadoopTree builds an HDFS HA nameservice under parent
// (ha.zookeeper.parent-znode): the active ZKFC holds the lock with its
// NameNode's data, the breadcrumb holds crumb's data, the standby watches
// the lock.
func hadoopTree(t *testing.T, zks *zktest.Server, parent, ns, activeNN, crumbNN string) (active, standby *zk.Conn) {
	t.Helper()
	admin := zks.Connect(t)
	mkdirs(t, admin, parent+"/"+ns) // hdfs zkfc -formatZK
	active, standby = zks.Connect(t), zks.Connect(t)
	create(t, active, parent+"/"+ns+"/ActiveStandbyElectorLock", hdfsActive(ns, activeNN, activeNN+".example.com"), zk.FlagEphemeral)
	create(t, active, parent+"/"+ns+"/ActiveBreadCrumb", hdfsActive(ns, crumbNN, crumbNN+".example.com"), 0)
	watchExists(t, standby, parent+"/"+ns+"/ActiveStandbyElectorLock")
	return active, standby
}

// hbaseMasterData is ZKMetadata + PBUF + Master{host,16000,start; 16010}.
func hbaseMasterData(host string, start uint64) []byte {
	id := "master:16000"
	meta := append([]byte{0xff, 0, 0, 0, byte(len(id) + 8)}, id...)
	meta = append(meta, 1, 2, 3, 4, 5, 6, 7, 8)
	sn := append([]byte{0x0a, byte(len(host))}, host...)
	sn = append(sn, 0x10, 0x80, 0x7d, 0x18)
	for v := start; ; v >>= 7 {
		if v < 0x80 {
			sn = append(sn, byte(v))
			break
		}
		sn = append(sn, byte(v)|0x80)
	}
	master := append([]byte{0x0a, byte(len(sn))}, sn...)
	master = append(master, 0x10, 0x00, 0x18, 0x8a, 0x7d)
	return append(append(meta, "PBUF"...), master...)
}

// hbaseTree builds HBase's masters under parent (zookeeper.znode.parent):
// both masters register as backups; the first wins /master and, unless
// keepBackup, deletes its own backup registration; the second watches
// /master with getData.
func hbaseTree(t *testing.T, zks *zktest.Server, parent string, keepBackup bool) (active, backup *zk.Conn) {
	t.Helper()
	admin := zks.Connect(t)
	mkdirs(t, admin, parent+"/backup-masters", parent+"/rs")
	active, backup = zks.Connect(t), zks.Connect(t)
	m1, m2 := "hmaster1.example.com", "hmaster2.example.com"
	create(t, active, parent+"/backup-masters/"+m1+",16000,1700000000000", hbaseMasterData(m1, 1700000000000), zk.FlagEphemeral)
	create(t, backup, parent+"/backup-masters/"+m2+",16000,1700000000123", hbaseMasterData(m2, 1700000000123), zk.FlagEphemeral)
	create(t, active, parent+"/master", hbaseMasterData(m1, 1700000000000), zk.FlagEphemeral)
	if !keepBackup {
		if err := active.Delete(parent+"/backup-masters/"+m1+",16000,1700000000000", -1); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, _, err := backup.GetW(parent + "/master"); err != nil {
		t.Fatal(err)
	}
	create(t, active, parent+"/rs/rs1.example.com,16020,1700000000456", []byte{}, zk.FlagEphemeral)
	return active, backup
}

// solrJoin makes c join the election at dir as Solr's LeaderElector does,
// watching the node before it; it returns the node's name.
func solrJoin(t *testing.T, c *zk.Conn, dir, id string) string {
	t.Helper()
	p := create(t, c, fmt.Sprintf("%s/%d-%s-n_", dir, c.SessionID(), id), nil, zk.FlagEphemeral|zk.FlagSequence)
	return p[strings.LastIndexByte(p, '/')+1:]
}

// solrOverseerTree builds the overseer election under base: node1 leads,
// node2 watches node1's election node; the leader node names node1's.
func solrOverseerTree(t *testing.T, zks *zktest.Server, base string) (first, second *zk.Conn, firstNode string) {
	t.Helper()
	admin := zks.Connect(t)
	mkdirs(t, admin, base+"/overseer_elect/election", base+"/live_nodes", base+"/overseer/queue")
	first, second = zks.Connect(t), zks.Connect(t)
	create(t, first, base+"/live_nodes/10.0.0.1:8983_solr", nil, zk.FlagEphemeral)
	create(t, second, base+"/live_nodes/10.0.0.2:8983_solr", nil, zk.FlagEphemeral)
	create(t, admin, base+"/overseer/queue/qn-", []byte(`{"operation":"state"}`), zk.FlagSequence)
	firstNode = solrJoin(t, first, base+"/overseer_elect/election", "10.0.0.1:8983_solr")
	solrJoin(t, second, base+"/overseer_elect/election", "10.0.0.2:8983_solr")
	create(t, first, base+"/overseer_elect/leader", fmt.Appendf(nil, "{\n  \"id\":\"%s\"}", firstNode), zk.FlagEphemeral)
	if _, _, _, err := second.GetW(base + "/overseer_elect/election/" + firstNode); err != nil {
		t.Fatal(err)
	}
	return first, second, firstNode
}

// solrShardTree builds shard1 of collection c1 under base: core_node1
// leads, registered in a multi with the bump of leaders/shard1.
func solrShardTree(t *testing.T, zks *zktest.Server, base string) (leader, replica *zk.Conn) {
	t.Helper()
	admin := zks.Connect(t)
	elect := base + "/collections/c1/leader_elect/shard1/election"
	mkdirs(t, admin, elect, base+"/collections/c1/leaders/shard1")
	leader, replica = zks.Connect(t), zks.Connect(t)
	first := solrJoin(t, leader, elect, "core_node1")
	solrJoin(t, replica, elect, "core_node2")
	props := `{"core":"c1_shard1_replica_n1","core_node_name":"core_node1","base_url":"http://10.0.0.1:8983/solr","node_name":"10.0.0.1:8983_solr"}`
	if _, err := leader.Multi(
		&zk.CheckVersionRequest{Path: elect + "/" + first, Version: -1},
		&zk.CreateRequest{Path: base + "/collections/c1/leaders/shard1/leader", Data: []byte(props), Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral},
		&zk.SetDataRequest{Path: base + "/collections/c1/leaders/shard1", Data: nil, Version: -1},
	); err != nil {
		t.Fatalf("solr leader registration: %v", err)
	}
	if _, _, _, err := replica.GetW(elect + "/" + first); err != nil {
		t.Fatal(err)
	}
	return leader, replica
}

// accumuloTree builds an Accumulo 2.1 instance under root: two managers
// queue on managers/lock, the second watching the first; a tablet server
// holds its lock; a FATE write and read lock table 2a.
func accumuloTree(t *testing.T, zks *zktest.Server, root string) (mgr1, mgr2 *zk.Conn, mgr1Node string) {
	t.Helper()
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/managers/lock", root+"/tservers/ts1:9997", root+"/table_locks/2a", root+"/fate")
	mgr1, mgr2 = zks.Connect(t), zks.Connect(t)
	p1 := create(t, mgr1, root+"/managers/lock/zlock#0b5e2f5a-7d21-4c9a-8a2a-c9aa44755fbe#", []byte("mgr1:9999"), zk.FlagEphemeral|zk.FlagSequence)
	create(t, mgr2, root+"/managers/lock/zlock#7d214c9a-0b5e-4f5a-8a2a-44755fbec9aa#", []byte("mgr2:9999"), zk.FlagEphemeral|zk.FlagSequence)
	watchExists(t, mgr2, p1)
	ts := zks.Connect(t)
	create(t, ts, root+"/tservers/ts1:9997/zlock#c9aa4475-5fbe-4b5e-8d21-0b5e2f5a7d21#", []byte("TSERV_CLIENT=ts1:9997"), zk.FlagEphemeral|zk.FlagSequence)
	create(t, admin, root+"/table_locks/2a/flock#", []byte("WRITE:000000000000abcd"), zk.FlagSequence)
	create(t, admin, root+"/table_locks/2a/flock#", []byte("READ:000000000000abce"), zk.FlagSequence)
	return mgr1, mgr2, p1[strings.LastIndexByte(p1, '/')+1:]
}
