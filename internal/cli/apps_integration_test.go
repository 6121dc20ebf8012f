package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/apptree"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationApplications builds each application's tree as that
// application does, on one ZooKeeper server (a root each), and checks that
// show names the holder, waiters, identity and fencing token in the
// application's own terms, and its failure signs.
func TestIntegrationApplications(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()

	t.Run("kafka under a chroot", func(t *testing.T) {
		s := apptree.Kafka(t, zks, "/kafka", 1, 1, 2)
		l := showApp(t, server+"/kafka", "/controller").Locks[0]
		a := l.App
		if l.Recipe != "kafka-controller" || a == nil || a.Holder != "broker 1 at kafka1:9092" || *a.HolderSession != sid(s[1]) {
			t.Fatalf("holder: %+v %+v", l, a)
		}
		if a.Token == nil || a.Token.Value != "6" || a.Token.Version == nil || *a.Token.Version != 1 || a.Token.Path != "/controller_epoch" {
			t.Fatalf("token: %+v", a.Token)
		}
		if l.Waiters != 1 || !slices.Equal(l.Hidden, []string{sid(s[2])}) || len(a.Members) != 1 ||
			a.Members[0].Identity != "broker 2 at kafka2:9092" || a.Members[0].Role != "waiter" {
			t.Fatalf("waiters: %d %v %+v", l.Waiters, l.Hidden, a.Members)
		}
		if l.Participants[0].Identity != "broker 1 at kafka1:9092" || len(l.Anomalies) != 0 {
			t.Fatalf("participant %+v, anomalies %+v", l.Participants[0], l.Anomalies)
		}
	})

	t.Run("kafka controller without registration", func(t *testing.T) {
		apptree.Kafka(t, zks, "/kafka-gone", 3, 1, 2)
		l := showApp(t, server, "/kafka-gone/controller").Locks[0]
		if !hasAnomaly(l.Anomalies, "holder-unregistered", "broker 3") || l.App.Holder != "broker 3" {
			t.Fatalf("anomalies %+v, holder %q", l.Anomalies, l.App.Holder)
		}
	})

	t.Run("hadoop", func(t *testing.T) {
		active, standby := apptree.HadoopHA(t, zks, "/ha-custom", "mycluster", "nn1", "nn1")
		l := showApp(t, server, "/ha-custom/mycluster/ActiveStandbyElectorLock").Locks[0]
		a := l.App
		if l.Recipe != "hadoop-ha" || a.Holder != "NameNode nn1 at nn1.example.com:8020 (nameservice mycluster, ZKFC port 8019)" ||
			*a.HolderSession != sid(active) {
			t.Fatalf("holder: %s %+v", l.Recipe, a)
		}
		if l.Waiters != 1 || !slices.Equal(l.Hidden, []string{sid(standby)}) || len(l.Anomalies) != 0 {
			t.Fatalf("waiters %d %v, anomalies %+v", l.Waiters, l.Hidden, l.Anomalies)
		}
	})

	t.Run("hadoop breadcrumb names another NameNode", func(t *testing.T) {
		apptree.HadoopHA(t, zks, "/hadoop-ha", "ns2", "nn2", "nn1")
		l := showApp(t, server, "/hadoop-ha/ns2/ActiveStandbyElectorLock").Locks[0]
		if !hasAnomaly(l.Anomalies, "unfenced", "names NameNode nn1 at nn1.example.com:8020") ||
			!hasAnomaly(l.Anomalies, "unfenced", "holder is NameNode nn2") {
			t.Fatalf("anomalies %+v", l.Anomalies)
		}
	})

	t.Run("hbase", func(t *testing.T) {
		active, backup := apptree.HBaseMasters(t, zks, "/hbase-prod", false)
		l := showApp(t, server, "/hbase-prod/master").Locks[0]
		a := l.App
		if l.Recipe != "hbase-master" || a.Holder != "master hmaster1.example.com,16000,1700000000000 (info port 16010)" || *a.HolderSession != sid(active) {
			t.Fatalf("holder: %s %+v", l.Recipe, a)
		}
		if l.Waiters != 1 || len(a.Members) != 1 || a.Members[0].Identity != "backup master hmaster2.example.com,16000,1700000000123" ||
			*a.Members[0].Session != sid(backup) || len(l.Anomalies) != 0 {
			t.Fatalf("waiters %d %+v %+v", l.Waiters, a.Members, l.Anomalies)
		}
	})

	t.Run("hbase backup master that is active", func(t *testing.T) {
		apptree.HBaseMasters(t, zks, "/hbase", true)
		l := showApp(t, server, "/hbase/master").Locks[0]
		if !hasAnomaly(l.Anomalies, "backup-is-active", "hmaster1.example.com,16000,1700000000000") || l.Waiters != 1 {
			t.Fatalf("waiters %d, anomalies %+v", l.Waiters, l.Anomalies)
		}
	})

	t.Run("solr overseer", func(t *testing.T) {
		first, second, firstNode := apptree.SolrOverseer(t, zks, "/solr")
		l := showApp(t, server, "/solr/overseer_elect/election").Locks[0]
		a := l.App
		if l.Recipe != "solr-election" || a.What != "overseer election" || a.Holder != "node 10.0.0.1:8983_solr" || *a.HolderSession != sid(first) {
			t.Fatalf("holder: %s %+v", l.Recipe, a)
		}
		p := l.Participants
		if len(p) != 2 || p[0].Node != firstNode || p[1].Role != "waiter" || *p[1].Session != sid(second) ||
			p[1].Watches == nil || *p[1].Watches != firstNode || p[1].Identity != "node 10.0.0.2:8983_solr" || len(l.Anomalies) != 0 {
			t.Fatalf("participants %+v, anomalies %+v", p, l.Anomalies)
		}
	})

	t.Run("solr shard leader", func(t *testing.T) {
		leader, _ := apptree.SolrShard(t, zks, "/solr")
		l := showApp(t, server, "/solr/collections/c1/leader_elect/shard1/election").Locks[0]
		a := l.App
		if a.Holder != "core c1_shard1_replica_n1 (core_node1) on node 10.0.0.1:8983_solr" || *a.HolderSession != sid(leader) ||
			a.Token == nil || a.Token.Value != "1" || a.Token.Path != "/solr/collections/c1/leaders/shard1" || l.Participants[1].Identity != "replica core_node2" {
			t.Fatalf("app %+v token %+v", a, a.Token)
		}
	})

	t.Run("solr leader whose election node is gone", func(t *testing.T) {
		first, _, firstNode := apptree.SolrOverseer(t, zks, "/solr-orphan")
		if err := first.Delete("/solr-orphan/overseer_elect/election/"+firstNode, -1); err != nil {
			t.Fatal(err)
		}
		l := showApp(t, server, "/solr-orphan/overseer_elect/election").Locks[0]
		if !hasAnomaly(l.Anomalies, "leader-without-candidate", firstNode) {
			t.Fatalf("anomalies %+v", l.Anomalies)
		}
	})

	t.Run("solr duplicate sequence joined at the head", func(t *testing.T) {
		admin := zks.Connect(t)
		dir := "/solr-dup/overseer_elect/election"
		apptree.MkdirAll(t, admin, dir)
		a, b, c := zks.Connect(t), zks.Connect(t), zks.Connect(t)
		first := apptree.SolrJoin(t, a, dir, "10.0.0.1:8983_solr")
		second := apptree.SolrJoin(t, b, dir, "10.0.0.2:8983_solr")
		// LeaderElector.joinElection(joinAtHead): a non-sequential node
		// with the sequence of the current second in line.
		head := fmt.Sprintf("%d-10.0.0.3:8983_solr-n_%s", c.SessionID(), second[len(second)-10:])
		apptree.Create(t, c, dir+"/"+head, nil, zk.FlagEphemeral)
		// sortSeqs orders the two by name; each watches the node before it.
		byName := []string{second, head}
		slices.Sort(byName)
		watcher := map[string]*zk.Conn{second: b, head: c}
		if _, _, _, err := watcher[byName[0]].GetW(dir + "/" + first); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := watcher[byName[1]].GetW(dir + "/" + byName[0]); err != nil {
			t.Fatal(err)
		}
		l := showApp(t, server, dir).Locks[0]
		if !hasAnomaly(l.Anomalies, "duplicate-seq", byName[0]+" before "+byName[1]) || len(l.Anomalies) != 1 ||
			l.Participants[1].Node != byName[0] || *l.Participants[2].Watches != byName[0] {
			t.Fatalf("participants %+v anomalies %+v", l.Participants, l.Anomalies)
		}
	})

	t.Run("accumulo", func(t *testing.T) {
		mgr1, mgr2, node := apptree.Accumulo(t, zks, "/accumulo/8a1f0d43-6f3c-4c49-9a4b-1d2c3e4f5a6b")
		l := showApp(t, server, "/accumulo/8a1f0d43-6f3c-4c49-9a4b-1d2c3e4f5a6b/managers/lock").Locks[0]
		a := l.App
		wantID := "/managers/lock/" + node + "$" + strings.TrimPrefix(sid(mgr1), "0x")
		if l.Recipe != "accumulo-lock" || a.Holder != "mgr1:9999" || a.Token == nil || a.Token.Value != wantID {
			t.Fatalf("holder %+v token %+v (want %s)", a, a.Token, wantID)
		}
		p := l.Participants
		if *p[1].Session != sid(mgr2) || p[1].Identity != "mgr2:9999" || p[1].Watches == nil || *p[1].Watches != node {
			t.Fatalf("waiter %+v", p[1])
		}
		f := showApp(t, server, "/accumulo/8a1f0d43-6f3c-4c49-9a4b-1d2c3e4f5a6b/table_locks/2a").Locks[0]
		if f.Recipe != "accumulo-fate" || f.Participants[0].Identity != "FATE transaction 000000000000abcd (write)" ||
			f.Participants[1].Role != "waiter" || len(f.Anomalies) != 0 {
			t.Fatalf("fate %+v", f)
		}
	})

	t.Run("curator", func(t *testing.T) {
		p := peers.Start(t, peers.Curator, server)
		p.Acquire(t, "nimbus1.example.com:6627", "leaderlatch", "/storm/leader-lock")
		p.WaitHeld(t, "nimbus1.example.com:6627", 30*time.Second)
		p.Acquire(t, "nimbus2.example.com:6627", "leaderlatch", "/storm/leader-lock")
		p.Acquire(t, "coordinator-1", "leaderselector", "/nifi/leaders/Cluster-Coordinator")
		p.WaitHeld(t, "coordinator-1", 30*time.Second)
		p.Acquire(t, "m1", "semaphoremutex", "/locks/semmutex")
		p.WaitHeld(t, "m1", 30*time.Second)
		p.Acquire(t, "m2", "semaphoremutex", "/locks/semmutex")
		latch := waitApp(t, server, "/storm/leader-lock", func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 2 }).Locks[0]
		if latch.Participants[0].Identity != "participant nimbus1.example.com:6627" || latch.Participants[1].Identity != "participant nimbus2.example.com:6627" {
			t.Fatalf("latch %+v", latch.Participants)
		}
		sel := showApp(t, server, "/nifi/leaders/Cluster-Coordinator").Locks[0]
		if sel.Recipe != "curator-mutex" || !strings.HasPrefix(sel.Participants[0].Identity, "participant coordinator-1") {
			t.Fatalf("selector %+v", sel)
		}
		sem := waitApp(t, server, "/locks/semmutex", func(s appShowJSON) bool { return s.Locks[0].Waiters == 1 }).Locks[0]
		if sem.Recipe != "curator-semaphore" || sem.Holders != 1 {
			t.Fatalf("semaphore mutex %+v", sem)
		}
	})
}

func waitApp(t *testing.T, server, path string, ok func(appShowJSON) bool) appShowJSON {
	t.Helper()
	var s appShowJSON
	zktest.WaitUntil(t, 20*time.Second, func() string {
		if s = showApp(t, server, path); ok(s) {
			return ""
		}
		return "show never reached the expected state"
	})
	return s
}

func hasAnomaly(as []struct {
	Kind   string   `json:"kind"`
	Nodes  []string `json:"nodes"`
	Detail string   `json:"detail"`
}, kind, detail string) bool {
	for _, a := range as {
		if a.Kind == kind && strings.Contains(a.Detail, detail) {
			return true
		}
	}
	return false
}

// TestIntegrationApplicationsMixed puts every application's tree under one
// root: ls lists each lock once, with its recipe, and nothing unparsed.
func TestIntegrationApplicationsMixed(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	apptree.Kafka(t, zks, "/mixed/kafka", 1, 1, 2)
	apptree.HadoopHA(t, zks, "/mixed/hadoop-ha", "ns1", "nn1", "nn1")
	apptree.HBaseMasters(t, zks, "/mixed/hbase", false)
	apptree.SolrOverseer(t, zks, "/mixed/solr")
	apptree.SolrShard(t, zks, "/mixed/solr")
	apptree.Accumulo(t, zks, "/mixed/accumulo/8a1f0d43-6f3c-4c49-9a4b-1d2c3e4f5a6b")
	out, errOut, code := run(t, "ls", "--json", "--server", zks.Addr(), "--root", "/mixed")
	if code != exitOK {
		t.Fatalf("ls exited %d: %s", code, errOut)
	}
	var ls struct {
		Locks []struct {
			Path      string   `json:"path"`
			Recipe    string   `json:"recipe"`
			Anomalies []string `json:"anomalies"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatal(err)
	}
	iid := "/mixed/accumulo/8a1f0d43-6f3c-4c49-9a4b-1d2c3e4f5a6b"
	want := map[string]string{
		"/mixed/kafka/controller":                                 "kafka-controller",
		"/mixed/hadoop-ha/ns1/ActiveStandbyElectorLock":           "hadoop-ha",
		"/mixed/hbase/master":                                     "hbase-master",
		"/mixed/solr/overseer_elect/election":                     "solr-election",
		"/mixed/solr/collections/c1/leader_elect/shard1/election": "solr-election",
		iid + "/managers/lock":                                    "accumulo-lock",
		iid + "/tservers/ts1:9997":                                "accumulo-lock",
		iid + "/table_locks/2a":                                   "accumulo-fate",
	}
	got := map[string]string{}
	for _, l := range ls.Locks {
		if _, dup := got[l.Path]; dup {
			t.Errorf("%s listed twice", l.Path)
		}
		got[l.Path] = l.Recipe
		if slices.Contains(l.Anomalies, "unparsed") {
			t.Errorf("%s has unparsed nodes", l.Path)
		}
	}
	if len(got) != len(want) {
		t.Errorf("ls listed %d locks, want %d:\n%s", len(got), len(want), out)
	}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("%s: recipe %q, want %q", p, got[p], r)
		}
	}
}
