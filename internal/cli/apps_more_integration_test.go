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

// TestIntegrationMoreApplications builds the trees of Hive, HBase 1.x,
// Helix, Mesos, Aurora, Pulsar and ClickHouse as their code writes them
// (internal/testkit/apptree), each under a root of its own on one server,
// and checks what show and ls say of holders, waiters, modes, watches and
// identity, and each application's failure signs.
func TestIntegrationMoreApplications(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()

	t.Run("hive", func(t *testing.T) {
		hs2a, hs2b := zks.Connect(t), zks.Connect(t)
		q := func(id, object, mode, client string) apptree.HiveLock {
			return apptree.HiveLock{Namespace: "hive_zookeeper_namespace", Object: object, Mode: mode, QueryID: id,
				LockTimeMs: 1700000000000, Query: "select * from " + object, ClientIP: client}
		}
		// Two queries of one HiveServer2 (one session, as Hive's Curator
		// singleton has) and one of another hold SHARED on the database.
		if apptree.LockHiveQuery(t, hs2a, q("hive_20231114221320_q1", "sales/orders", "SHARED", "10.0.0.5")) == nil ||
			apptree.LockHiveQuery(t, hs2a, q("hive_20231114221321_q2", "sales/orders/ds=2023-11-14", "SHARED", "10.0.0.5")) == nil ||
			apptree.LockHiveQuery(t, hs2b, q("hive_20231114221322_q3", "sales/orders/ds=2023-11-15", "EXCLUSIVE", "fe80::1")) == nil {
			t.Fatal("a compatible lock was refused")
		}
		// An INSERT OVERWRITE meets the SHARED locks: it deletes its node
		// and would try again later, leaving nothing behind.
		if apptree.LockHiveQuery(t, hs2b, q("hive_20231114221323_q4", "sales/orders", "EXCLUSIVE", "fe80::1")) != nil {
			t.Fatal("an EXCLUSIVE lock over SHARED ones was granted")
		}
		// LOCK TABLE sales.customers EXCLUSIVE: persistent, EXPLICIT.
		explicit := q("hive_20231114221324_q5", "sales/customers", "EXCLUSIVE", "10.0.0.6")
		explicit.Explicit, explicit.Query = true, "LOCK TABLE sales.customers EXCLUSIVE"
		if _, ok := apptree.LockHive(t, hs2b, explicit); !ok {
			t.Fatal("LOCK TABLE refused")
		}

		db := showApp(t, server, "/hive_zookeeper_namespace/sales").Locks[0]
		if db.Recipe != "hive" || db.Holders != 3 || db.Waiters != 0 || len(db.Anomalies) != 0 || db.App == nil ||
			db.App.What != "database lock on sales" || db.App.Holder != "3 co-holders (3 SHARED)" {
			t.Fatalf("database: %+v app %+v", db, db.App)
		}
		for _, p := range db.Participants {
			if p.Role != "holder" || p.Mode != "read" || !strings.HasPrefix(p.Identity, "query hive_2023111422132") {
				t.Errorf("database participant %+v", p)
			}
		}
		part := showApp(t, server, "/hive_zookeeper_namespace/sales/orders/ds=2023-11-15").Locks[0]
		if p := part.Participants; len(p) != 1 || p[0].Mode != "write" || p[0].Role != "holder" ||
			p[0].Identity != "query hive_20231114221322_q3 from fe80::1, locked 2023-11-14T22:13:20Z: select * from sales/orders/ds=2023-11-15" ||
			part.App.What != "partition lock on sales@orders@ds=2023-11-15" {
			t.Fatalf("partition: %+v app %+v", p, part.App)
		}
		table := showApp(t, server, "/hive_zookeeper_namespace/sales/customers").Locks[0]
		if p := table.Participants; len(p) != 1 || p[0].Eph || p[0].Session != nil || p[0].Role != "holder" ||
			!strings.HasPrefix(p[0].Identity, "LOCK TABLE hive_20231114221324_q5 from 10.0.0.6") ||
			len(table.Anomalies) != 1 || !hasAnomaly(table.Anomalies, "explicit-lock", "until UNLOCK TABLE") {
			t.Fatalf("explicit lock: %+v anomalies %+v", p, table.Anomalies)
		}

		// The moment between a refused node's create and its delete.
		admin := zks.Connect(t)
		apptree.Create(t, admin, "/hive_zookeeper_namespace/sales/orders/LOCK-EXCLUSIVE-", []byte("hive_x:1700000000000:IMPLICIT:insert overwrite:10.0.0.7"), zk.FlagEphemeral|zk.FlagSequence)
		orders := showApp(t, server, "/hive_zookeeper_namespace/sales/orders").Locks[0]
		last := orders.Participants[len(orders.Participants)-1]
		if orders.Holders != 3 || last.Role != "waiter" || last.Mode != "write" || last.Watches != nil ||
			!strings.Contains(last.Note, "Hive deletes this node") || len(orders.Anomalies) != 0 {
			t.Fatalf("orders: %+v anomalies %+v", orders.Participants, orders.Anomalies)
		}

		want := []string{"/hive_zookeeper_namespace/sales", "/hive_zookeeper_namespace/sales/customers", "/hive_zookeeper_namespace/sales/orders",
			"/hive_zookeeper_namespace/sales/orders/ds=2023-11-14", "/hive_zookeeper_namespace/sales/orders/ds=2023-11-15"}
		if got := lsRecipes(t, server, "/hive_zookeeper_namespace"); !sameKeys(got, want, "hive") {
			t.Fatalf("ls: %v, want %v as hive", got, want)
		}
	})

	t.Run("hbase 1.x table locks", func(t *testing.T) {
		lock := func(write bool, id string, thread uint64, purpose string) apptree.HBaseTableLock {
			return apptree.HBaseTableLock{Parent: "/hbase1", Table: "t1", Write: write, Identifier: id,
				Host: "hmaster1.example.com", Port: 16000, StartCode: 1700000000000, ThreadID: thread, Purpose: purpose, CreateMs: 1700000000000}
		}
		// Two region servers read (a split each), the master waits to
		// write (disable), and a third reader queues behind the write.
		rs1, rs2, master, rs3 := zks.Connect(t), zks.Connect(t), zks.Connect(t), zks.Connect(t)
		r1, _ := apptree.LockHBaseTable(t, rs1, lock(false, "regionserver:16020", 11, "SPLIT_REGION"))
		r2, _ := apptree.LockHBaseTable(t, rs2, lock(false, "regionserver:16020", 12, "SPLIT_REGION"))
		w, wWatches := apptree.LockHBaseTable(t, master, lock(true, "master:16000", 13, "disableTable"))
		r3, r3Watches := apptree.LockHBaseTable(t, rs3, lock(false, "regionserver:16020", 14, "SPLIT_REGION"))
		if wWatches != r2 || r3Watches != w {
			t.Fatalf("built: the write watches %s, the last read %s", wWatches, r3Watches)
		}
		l := showApp(t, server, "/hbase1/table-lock/t1").Locks[0]
		p := l.Participants
		if l.Recipe != "hbase-table-lock" || l.Holders != 2 || l.Waiters != 2 || len(p) != 4 || len(l.Anomalies) != 0 {
			t.Fatalf("lock %+v", l)
		}
		want := []struct{ node, role, mode, watches string }{{r1, "holder", "read", ""}, {r2, "holder", "read", ""}, {w, "waiter", "write", r2}, {r3, "waiter", "read", w}}
		for i, x := range want {
			got := ""
			if p[i].Watches != nil {
				got = *p[i].Watches
			}
			if p[i].Node != x.node || p[i].Role != x.role || p[i].Mode != x.mode || got != x.watches {
				t.Errorf("participant %d: %s %s %s watches %q, want %+v", i, p[i].Node, p[i].Role, p[i].Mode, got, x)
			}
		}
		if p[2].Identity != "hmaster1.example.com,16000,1700000000000 (thread 13) for disableTable, since 2023-11-14T22:13:20Z" ||
			l.App == nil || l.App.What != "table lock on t1" || !strings.HasPrefix(l.App.Holder, "2 readers: ") {
			t.Errorf("identity %q app %+v", p[2].Identity, l.App)
		}
	})

	t.Run("helix", func(t *testing.T) {
		c1, c2, c3 := zks.Connect(t), zks.Connect(t), zks.Connect(t)
		apptree.HelixElect(t, "espresso", []apptree.HelixController{{Instance: "ctrl1_12000", Conn: c1}, {Instance: "ctrl2_12000", Conn: c2}, {Instance: "ctrl3_12000", Conn: c3}},
			[]string{"ctrl2_12000", "ctrl3_12000"}, []int64{1699990000000, 1699995000000, 1700000000000}, "")
		l := showApp(t, server, "/espresso/CONTROLLER/LEADER").Locks[0]
		a := l.App
		if l.Recipe != "helix-controller" || a == nil || a.Holder != "controller ctrl1_12000 (4242@ctrl1_12000)" || *a.HolderSession != sid(c1) ||
			l.Participants[0].Identity != a.Holder || len(l.Anomalies) != 0 {
			t.Fatalf("lock %+v app %+v", l, a)
		}
		var waiting, before []string
		for _, m := range a.Members {
			switch m.Role {
			case "waiter":
				waiting = append(waiting, *m.Session)
			case "previous":
				before = append(before, m.Identity)
			}
		}
		if l.Waiters != 2 || len(waiting) != 2 || !slices.Contains(waiting, sid(c2)) || !slices.Contains(waiting, sid(c3)) {
			t.Errorf("waiters %d, members waiting %v", l.Waiters, waiting)
		}
		if !slices.Equal(before, []string{"controller ctrl3_12000, leader from 2023-11-14T20:50:00Z", "controller ctrl2_12000, leader from 2023-11-14T19:26:40Z"}) {
			t.Errorf("previous leaders %q", before)
		}
		if got := lsRecipes(t, server, "/espresso"); got["/espresso/CONTROLLER/LEADER"] != "helix-controller" || len(got) != 1 {
			t.Errorf("ls: %v", got)
		}

		// A LEADER written with a session that is not its owner's.
		stale := zks.Connect(t)
		apptree.HelixElect(t, "stale", []apptree.HelixController{{Instance: "ctrl9_12000", Conn: stale}}, nil, nil, "deadbeef")
		l = showApp(t, server, "/stale/CONTROLLER/LEADER").Locks[0]
		if !hasAnomaly(l.Anomalies, "session-mismatch", `SESSION_ID "deadbeef", but session `+sid(stale)) {
			t.Errorf("anomalies %+v", l.Anomalies)
		}
	})

	t.Run("mesos", func(t *testing.T) {
		admin := zks.Connect(t)
		apptree.MkdirAll(t, admin, "/mesos/log_replicas")
		m1, m2, m3 := zks.Connect(t), zks.Connect(t), zks.Connect(t)
		n1 := apptree.MesosJoin(t, m1, "/mesos", apptree.MesosMasterInfo("m1.example.com", "10.0.0.1", 5050))
		apptree.MesosJoin(t, m2, "/mesos", apptree.MesosMasterInfo("m2.example.com", "10.0.0.2", 5050))
		apptree.MesosJoin(t, m3, "/mesos", apptree.MesosMasterInfo("m3.example.com", "10.0.0.3", 5050))
		l := showApp(t, server, "/mesos").Locks[0]
		p := l.Participants
		if l.Recipe != "mesos-master" || l.Holders != 1 || l.Waiters != 2 || len(l.Anomalies) != 0 || p[0].Node != n1 ||
			l.App == nil || l.App.Holder != "master m1.example.com (master@10.0.0.1:5050) 1.11.0" || *l.App.HolderSession != sid(m1) {
			t.Fatalf("lock %+v app %+v", l, l.App)
		}
		for _, w := range p[1:] {
			if w.Role != "waiter" || !w.Children || w.Watches == nil || *w.Watches != "*" || !strings.HasPrefix(w.Identity, "master m") {
				t.Errorf("waiter %+v", w)
			}
		}
	})

	t.Run("aurora", func(t *testing.T) {
		s1, s2 := zks.Connect(t), zks.Connect(t)
		leader := apptree.CuratorLatch(t, s1, "/aurora/scheduler", "sched1.example.com")
		apptree.CuratorLatch(t, s2, "/aurora/scheduler", "sched2.example.com")
		member := apptree.AuroraAnnounce(t, s1, "/aurora/scheduler", "sched1.example.com", 8081)
		l := showApp(t, server, "/aurora/scheduler").Locks[0]
		if l.Recipe != "curator-leaderlatch" || l.Holders != 1 || l.Waiters != 1 || len(l.Participants) != 2 || len(l.Anomalies) != 0 ||
			l.Participants[0].Node != leader || l.App == nil || l.App.Name != "aurora" || l.App.Holder != "participant sched1.example.com" {
			t.Fatalf("lock %+v app %+v", l, l.App)
		}
		if m := l.App.Members; len(m) != 1 || m[0].Identity != "announced leader at sched1.example.com:8081" || *m[0].Session != sid(s1) || m[0].Path != "/aurora/scheduler/"+member {
			t.Errorf("members %+v", m)
		}
		// An announcement left by a scheduler that no longer leads.
		s3, s4 := zks.Connect(t), zks.Connect(t)
		apptree.CuratorLatch(t, s3, "/aurora2/scheduler", "sched3.example.com")
		apptree.AuroraAnnounce(t, s4, "/aurora2/scheduler", "sched4.example.com", 8081)
		l = showApp(t, server, "/aurora2/scheduler").Locks[0]
		if !hasAnomaly(l.Anomalies, "session-mismatch", "clients that read the announcement reach a scheduler that does not lead") {
			t.Errorf("anomalies %+v", l.Anomalies)
		}
	})

	t.Run("druid, spark and nifi", func(t *testing.T) {
		p := peers.Start(t, peers.Curator, server)
		p.Acquire(t, "http://coord1.example.com:8081", "leaderlatch", "/druid/coordinator/_COORDINATOR")
		p.WaitHeld(t, "http://coord1.example.com:8081", 30*time.Second)
		p.Acquire(t, "http://coord2.example.com:8081", "leaderlatch", "/druid/coordinator/_COORDINATOR")
		p.Acquire(t, "nifi1.example.com:8443", "leaderselector", "/nifi/leaders/Cluster Coordinator")
		p.WaitHeld(t, "nifi1.example.com:8443", 30*time.Second)
		p.Acquire(t, "nifi2.example.com:8443", "leaderselector", "/nifi/leaders/Cluster Coordinator")
		spark1, spark2 := zks.Connect(t), zks.Connect(t)
		apptree.CuratorLatch(t, spark1, "/spark/leader_election", "")
		apptree.CuratorLatch(t, spark2, "/spark/leader_election", "")

		druid := waitApp(t, server, "/druid/coordinator/_COORDINATOR", func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 2 }).Locks[0]
		if druid.Recipe != "curator-leaderlatch" || druid.Participants[0].Identity != "participant http://coord1.example.com:8081" ||
			druid.Participants[1].Role != "waiter" || len(druid.Anomalies) != 0 || druid.App == nil ||
			druid.App.What != "coordinator leader election" || druid.App.Holder != "participant http://coord1.example.com:8081" {
			t.Errorf("druid %+v", druid)
		}
		nifi := waitApp(t, server, "/nifi/leaders/Cluster Coordinator", func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 2 }).Locks[0]
		if nifi.Path != "/nifi/leaders/Cluster Coordinator" || nifi.Recipe != "curator-mutex" || nifi.Holders != 1 || nifi.Waiters != 1 ||
			!strings.HasPrefix(nifi.Participants[0].Identity, "participant nifi1.example.com:8443") || len(nifi.Anomalies) != 0 ||
			nifi.App == nil || nifi.App.What != "Cluster Coordinator election" {
			t.Errorf("nifi %+v", nifi)
		}
		spark := showApp(t, server, "/spark/leader_election").Locks[0]
		if spark.Recipe != "curator-leaderlatch" || spark.Holders != 1 || spark.Waiters != 1 || spark.Participants[0].Identity != "" ||
			spark.App == nil || spark.App.Holder != "session "+sid(spark1) {
			t.Errorf("spark %+v", spark)
		}
		got := lsRecipes(t, server, "/nifi")
		if got["/nifi/leaders/Cluster Coordinator"] != "curator-mutex" {
			t.Errorf("ls /nifi: %v", got)
		}
	})

	t.Run("pulsar", func(t *testing.T) {
		b1 := apptree.PulsarBroker{Conn: zks.Connect(t), Host: "broker1.example.com"}
		b2 := apptree.PulsarBroker{Conn: zks.Connect(t), Host: "broker2.example.com"}
		gone := apptree.PulsarBroker{Conn: zks.Connect(t), Host: "broker3.example.com"}
		apptree.PulsarRegister(t, b1)
		apptree.PulsarRegister(t, b2)
		apptree.PulsarLead(t, b1)
		owned := apptree.PulsarOwn(t, b2, "public/default", "0x00000000_0x40000000", false)
		unloading := apptree.PulsarOwn(t, b1, "public/default", "0x40000000_0x80000000", true)
		// A broker whose registration is gone still owns a bundle.
		orphan := apptree.PulsarOwn(t, gone, "public/default", "0x80000000_0xc0000000", false)

		l := showApp(t, server, "/loadbalance/leader").Locks[0]
		if l.Recipe != "pulsar-leader" || l.App == nil || l.App.Holder != "broker broker1.example.com:8080 (http://broker1.example.com:8080)" ||
			*l.App.HolderSession != sid(b1.Conn) || len(l.App.Members) != 2 || len(l.Anomalies) != 0 {
			t.Fatalf("leader %+v app %+v", l, l.App)
		}
		b := showApp(t, server, owned).Locks[0]
		if b.Recipe != "pulsar-bundle" || b.App.What != "ownership of bundle public/default 0x00000000_0x40000000" ||
			b.App.Holder != "broker pulsar://broker2.example.com:6650 (http://broker2.example.com:8080)" || *b.App.HolderSession != sid(b2.Conn) ||
			b.Holders != 1 || len(b.Anomalies) != 0 {
			t.Fatalf("bundle %+v app %+v", b, b.App)
		}
		u := showApp(t, server, unloading).Locks[0]
		if !slices.ContainsFunc(u.App.Notes, func(n string) bool { return strings.HasPrefix(n, "disabled: the owner is unloading") }) {
			t.Errorf("unloading bundle notes %q", u.App.Notes)
		}
		o := showApp(t, server, orphan).Locks[0]
		if !hasAnomaly(o.Anomalies, "holder-unregistered", "no broker is registered at /loadbalance/brokers/broker3.example.com:8080") {
			t.Errorf("orphan bundle anomalies %+v", o.Anomalies)
		}
		got := lsRecipes(t, server, "/namespace")
		if len(got) != 3 || got[owned] != "pulsar-bundle" || got[orphan] != "pulsar-bundle" {
			t.Errorf("ls /namespace: %v", got)
		}
		if got := lsRecipes(t, server, "/loadbalance"); got["/loadbalance/leader"] != "pulsar-leader" || len(got) != 1 {
			t.Errorf("ls /loadbalance: %v", got)
		}
	})

	t.Run("clickhouse ddl queue", func(t *testing.T) {
		const queue = "/clickhouse/task_queue/ddl"
		ch1, ch2, ch3 := apptree.ClickHouseHostID("ch1.example.com", 9000), apptree.ClickHouseHostID("ch2.example.com", 9000), apptree.ClickHouseHostID("ch3.example.com", 9000)
		admin, h1, h2 := zks.Connect(t), zks.Connect(t), zks.Connect(t)
		done := apptree.ClickHouseEnqueue(t, admin, queue, "CREATE DATABASE d1 ON CLUSTER c", []string{ch1, ch2})
		apptree.ClickHouseStart(t, h1, done, ch1)
		apptree.ClickHouseFinish(t, h1, done, ch1, 0, "")
		apptree.ClickHouseStart(t, h2, done, ch2)
		apptree.ClickHouseFinish(t, h2, done, ch2, 0, "")
		running := apptree.ClickHouseEnqueue(t, admin, queue, "ALTER TABLE d1.t ON CLUSTER c ADD COLUMN x UInt8", []string{ch1, ch2, ch3})
		apptree.ClickHouseStart(t, h1, running, ch1)
		apptree.ClickHouseFinish(t, h1, running, ch1, 0, "")
		apptree.ClickHouseStart(t, h2, running, ch2)

		l := showApp(t, server, running).Locks[0]
		a := l.App
		if l.Recipe != "clickhouse-ddl" || l.Holders != 1 || len(l.Anomalies) != 0 || a == nil ||
			a.What != "distributed DDL task "+apptree.Base(running)+": ALTER TABLE d1.t ON CLUSTER c ADD COLUMN x UInt8" ||
			a.Holder != "host ch2.example.com:9000 executing" || *a.HolderSession != sid(h2) {
			t.Fatalf("task %+v app %+v", l, a)
		}
		roles := map[string]string{}
		for _, m := range a.Members {
			roles[m.Identity] = m.Role
		}
		if len(a.Members) != 2 || roles["host ch1.example.com:9000"] != "" || roles["host ch3.example.com:9000"] != "waiter" {
			t.Errorf("members %+v", a.Members)
		}
		// An active node no session owns (written back from a copy of the
		// tree, say): ClickHouse waits for a host that is not there.
		stuck := apptree.ClickHouseEnqueue(t, admin, queue, "DROP TABLE d1.old ON CLUSTER c", []string{ch3})
		apptree.Create(t, admin, stuck+"/active/"+ch3, nil, 0)
		l = showApp(t, server, stuck).Locks[0]
		if !hasAnomaly(l.Anomalies, "stuck-task", "host ch3.example.com:9000 is active on this task, but no session owns its active node") {
			t.Errorf("stuck task anomalies %+v", l.Anomalies)
		}
		got := lsRecipes(t, server, "/clickhouse")
		if len(got) != 2 || got[running] != "clickhouse-ddl" || got[stuck] != "clickhouse-ddl" {
			t.Errorf("ls: %v, want the two tasks with an active host (%s finished)", got, done)
		}
	})
}

// lsRecipes lists the locks under root with their recipes.
func lsRecipes(t *testing.T, server, root string) map[string]string {
	t.Helper()
	out, errOut, code := run(t, "ls", "--json", "--server", server, "--root", root)
	if code != exitOK {
		t.Fatalf("ls exited %d: %s", code, errOut)
	}
	var ls struct {
		Locks []struct {
			Path   string `json:"path"`
			Recipe string `json:"recipe"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range ls.Locks {
		got[l.Path] = l.Recipe
	}
	return got
}

func sameKeys(got map[string]string, want []string, recipe string) bool {
	if len(got) != len(want) {
		return false
	}
	for _, p := range want {
		if got[p] != recipe {
			return false
		}
	}
	return true
}

// TestIntegrationClickHouseStuckTask: a ClickHouse host that took a DDL
// task (its ephemeral active node) and whose client is cut off, so that its
// session lives on with no connection, leaves the task stuck: show says
// so, with the session and the members' answer as evidence.
func TestIntegrationClickHouseStuckTask(t *testing.T) {
	t.Parallel()
	// Every session gets 30 s, so that the cut-off host's session outlives
	// its connection long enough to be seen on a busy machine.
	srv := zktest.Start(t, zktest.WithConfig("minSessionTimeout=30000", "maxSessionTimeout=30000"))
	const queue = "/clickhouse/task_queue/ddl"
	ch1, ch2 := apptree.ClickHouseHostID("ch1.example.com", 9000), apptree.ClickHouseHostID("ch2.example.com", 9000)
	admin, h1 := srv.Connect(t), srv.Connect(t)
	task := apptree.ClickHouseEnqueue(t, admin, queue, "ALTER TABLE d1.t ON CLUSTER c DROP COLUMN x", []string{ch1, ch2})
	apptree.ClickHouseStart(t, h1, task, ch1)

	proxy := zktest.NewProxy(t, srv.Addr())
	h2, _, err := zk.Connect([]string{proxy.Addr()}, 30*time.Second, zk.WithLogger(zkQuiet{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h2.Close)
	zktest.WaitUntil(t, 20*time.Second, func() string {
		if h2.State() != zk.StateHasSession {
			return "the host behind the proxy has no session"
		}
		return ""
	})
	apptree.ClickHouseStart(t, h2, task, ch2)
	hex := sid(h2)
	proxy.Close()

	var got showJSON
	zktest.WaitUntil(t, 20*time.Second, func() string {
		got = show(t, srv.Addr(), task)
		for _, p := range got.Locks[0].Participants {
			if p.Session != nil && *p.Session == hex && p.Conn != nil && *p.Conn == "disconnected" {
				return ""
			}
		}
		return fmt.Sprintf("show: the cut-off host's session %s is not seen disconnected: %+v", hex, got.Locks[0].Participants)
	})
	var stuck []string
	for _, a := range got.Locks[0].Anomalies {
		if a.Kind == "stuck-task" {
			stuck = append(stuck, a.Detail)
		}
	}
	want := "host ch2.example.com:9000 is active on this task, but its session " + hex + " is connected to no ensemble member"
	if len(stuck) != 1 || !strings.HasPrefix(stuck[0], want) {
		t.Errorf("stuck-task anomalies %q, want one starting %q", stuck, want)
	}
}

// zkQuiet drops go-zookeeper's log: the cut-off client retries loudly.
type zkQuiet struct{}

func (zkQuiet) Printf(string, ...any) {}
