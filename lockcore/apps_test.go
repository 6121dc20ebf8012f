package lockcore

import (
	"strings"
	"testing"
)

func withData(n Node, data string) Node {
	n.Data = []byte(data)
	n.Stat.DataLength = int32(len(data))
	return n
}

func TestAnalyzeAccumuloWatchesLowestOfPredecessorsProcess(t *testing.T) {
	var b builder
	u1, u2, u3 := "0b5e2f5a-7d21-4c9a-8a2a-c9aa44755fbe", "7d214c9a-0b5e-4f5a-8a2a-44755fbec9aa", "c9aa4475-5fbe-4b5e-8d21-0b5e2f5a7d21"
	l := Analyze(settled(queueTree("/accumulo/i/managers/lock",
		withData(b.node("zlock#"+u1+"#0000000000", 1), "mgr1:9999"),
		withData(b.node("zlock#"+u1+"#0000000001", 1), "mgr1:9999"),
		withData(b.node("zlock#"+u2+"#0000000002", 2), "mgr2:9999"),
		withData(b.node("zlock#"+u3+"#0000000003", 3), "mgr3:9999"),
		withData(b.node("zlock#"+u1+"#0000000004", 1), "mgr1:9999"),
		withData(b.node("zlock#"+u2+"#0000000005", 2), "mgr2:9999"))), nil, Options{})
	// findLowestPrevPrefix walks back from the predecessor while the
	// prefix stays the same: ...02 waits on ...00, not ...01; ...05 on ...04
	// (not ...00, the run is broken by ...02 and ...03).
	watches := func(i int) string { w := l.Participants[i].Watches.Node; return w[len(w)-10:] }
	if l.Recipe != RecipeAccumuloLock || watches(2) != "0000000000" || watches(3) != "0000000002" || watches(5) != "0000000004" {
		t.Fatalf("%s: %s", l.Recipe, layout(l))
	}
	if l.App.Token.Value != "/managers/lock/zlock#"+u1+"#0000000000$1" || l.Participants[2].Identity != "mgr2:9999" {
		t.Fatalf("token %+v, identity %q", l.App.Token, l.Participants[2].Identity)
	}
}

func TestAnalyzeAccumuloFate(t *testing.T) {
	var b builder
	l := Analyze(settled(queueTree("/accumulo/i/table_locks/2a",
		withData(b.node("flock#0000000011", 0), "READ:000000000000abcd"),
		withData(b.node("flock#0000000012", 0), "WRITE:000000000000abce"),
		withData(b.node("flock#0000000013", 0), "READ:000000000000abcf"))), nil, Options{})
	if got := layout(l); got != "flock#0000000011:h:- flock#0000000012:w:flock#0000000011 flock#0000000013:w:flock#0000000012" {
		t.Fatalf("layout %s", got)
	}
	noAnomaly(t, l)
	if c := FenceCandidates(l); len(c) != 0 {
		t.Fatalf("a FATE table lock offered for fencing: %+v", c)
	}
	if l.App.Holder != "FATE transaction 000000000000abcd (read)" {
		t.Fatalf("holder %q", l.App.Holder)
	}
}

func TestAnalyzeSolrOrdersEqualSequencesByName(t *testing.T) {
	var b builder
	// The node that joined at the head was created last, with the second's
	// sequence; its name sorts first.
	l := Analyze(settled(queueTree("/overseer_elect/election",
		b.node("300-10.0.0.1:8983_solr-n_0000000000", 300),
		b.node("500-10.0.0.2:8983_solr-n_0000000001", 500),
		b.node("400-10.0.0.3:8983_solr-n_0000000001", 400))), nil, Options{})
	want := "300-10.0.0.1:8983_solr-n_0000000000:h:- 400-10.0.0.3:8983_solr-n_0000000001:w:300-10.0.0.1:8983_solr-n_0000000000 " +
		"500-10.0.0.2:8983_solr-n_0000000001:w:400-10.0.0.3:8983_solr-n_0000000001"
	if got := layout(l); got != want {
		t.Fatalf("layout %s", got)
	}
	a := anomaly(t, l, AnomalyDuplicateSeq)
	if !strings.Contains(a.Detail, "400-10.0.0.3:8983_solr-n_0000000001 before 500") {
		t.Fatalf("detail %q", a.Detail)
	}
	if l.App.Holder != "node 10.0.0.1:8983_solr" {
		t.Fatalf("holder %q", l.App.Holder)
	}
}

func kafkaControllerTree(b *builder, controllerOwner int64, brokers map[string]int64) Tree {
	self := withData(b.node("controller", controllerOwner), `{"version":2,"brokerid":1,"timestamp":"1700000000000","kraftControllerEpoch":-1}`)
	t := Tree{Path: "/kafka/controller", Self: self, ReadAt: readAt, Extra: map[string][]Node{"/kafka/brokers/ids": nil},
		Related: map[string]Node{"/kafka/controller_epoch": withData(b.node("controller_epoch", 0), "17")}}
	for id, owner := range brokers {
		t.Extra["/kafka/brokers/ids"] = append(t.Extra["/kafka/brokers/ids"], withData(b.node(id, owner), `{"version":5,"host":"kafka`+id+`","port":9092}`))
	}
	return t
}

func TestAnalyzeKafka(t *testing.T) {
	var b builder
	l := Analyze(kafkaControllerTree(&b, 10, map[string]int64{"1": 10, "2": 20}), nil, Options{})
	noAnomaly(t, l)
	if l.Recipe != RecipeKafkaController || l.App.Holder != "broker 1 at kafka1:9092" || l.App.Token.Value != "17" {
		t.Fatalf("%s %+v %+v", l.Recipe, l.App, l.App.Token)
	}
	// Without the servers' watch table, broker 2 could run but is not
	// known to wait.
	if len(l.App.Members) != 1 || l.App.Members[0].Role != "" || l.Waiters() != 0 {
		t.Fatalf("members %+v, waiters %d", l.App.Members, l.Waiters())
	}
	w := NewWatchTable(map[int64][]string{20: {"/kafka/controller"}})
	l = Analyze(kafkaControllerTree(&b, 10, map[string]int64{"1": 10, "2": 20}), w, Options{})
	if l.Waiters() != 1 || l.App.Members[0].Role != RoleWaiter {
		t.Fatalf("members %+v, waiters %d", l.App.Members, l.Waiters())
	}
	// Broker 1 restarted in a new session; the old one still holds.
	l = Analyze(kafkaControllerTree(&b, 10, map[string]int64{"1": 11}), nil, Options{})
	if a := anomaly(t, l, AnomalyHolderUnregistered); !strings.Contains(a.Detail, "registered by session 0xb") {
		t.Fatalf("detail %q", a.Detail)
	}
}

func TestAnalyzeHadoopUndecodedDataIsShownNotGuessed(t *testing.T) {
	var b builder
	self := withData(b.node("ActiveStandbyElectorLock", 10), "nn1.example.com:8020\x1b[2J")
	l := Analyze(Tree{Path: "/hadoop-ha/ns/ActiveStandbyElectorLock", Self: self, ReadAt: readAt,
		Related: map[string]Node{"/hadoop-ha/ns/ActiveBreadCrumb": {}}}, nil, Options{})
	if l.Recipe != RecipeHadoopHA || l.App.Holder != `the active does not decode: data "nn1.example.com:8020\x1b[2J"` {
		t.Fatalf("%s holder %q", l.Recipe, l.App.Holder)
	}
	if len(l.App.Notes) != 2 || !strings.Contains(l.App.Notes[0], "no ActiveBreadCrumb") || !strings.Contains(l.App.Notes[1], "watch table") {
		t.Fatalf("notes %q", l.App.Notes)
	}
}

func TestAnalyzeHBaseBackupMastersWait(t *testing.T) {
	var b builder
	master := b.node("master", 10)
	master.Data = unhex(t, hbaseMaster1)
	t1 := Tree{Path: "/hbase/master", Self: master, ReadAt: readAt, Extra: map[string][]Node{
		"/hbase/backup-masters": {b.node("hmaster2.example.com,16000,1700000000123", 20)}}}
	l := Analyze(t1, nil, Options{})
	noAnomaly(t, l)
	if l.Waiters() != 1 || l.App.Members[0].Role != RoleWaiter {
		t.Fatalf("waiters %d %+v", l.Waiters(), l.App.Members)
	}
}

func TestAnalyzeCuratorIDs(t *testing.T) {
	var b builder
	uuid := "2f1f2ee0-1c3b-4b8b-8e8a-0f2a3d0b9e5c"
	l := Analyze(settled(queueTree("/storm/leader-lock",
		withData(b.node("_c_"+uuid+"-latch-0000000000", 1), "nimbus1:6627"),
		withData(b.node("_c_"+uuid+"-latch-0000000001", 2), ""))), nil, Options{})
	if l.Participants[0].Identity != "participant nimbus1:6627" || l.Participants[1].Identity != "" {
		t.Fatalf("%+v", l.Participants)
	}
	l = Analyze(settled(queueTree("/locks/x", withData(b.node("_c_"+uuid+"-lock-0000000000", 1), "10.0.0.5"))), nil, Options{})
	if l.Participants[0].Identity != "" {
		t.Fatalf("the default address is data, not an id: %q", l.Participants[0].Identity)
	}
}

// TestAnalyzeAuroraAnnouncement: the leader's ServerSet announcement
// names its endpoint when its data says one, and only the words
// "announced leader" when it does not decode.
func TestAnalyzeAuroraAnnouncement(t *testing.T) {
	var b builder
	uuid := "2f1f2ee0-1c3b-4b8b-8e8a-0f2a3d0b9e5c"
	l := Analyze(settled(queueTree("/aurora/scheduler",
		withData(b.node("_c_"+uuid+"-latch-0000000000", 1), "sched1"),
		withData(b.node("member_0000000001", 1), `{"serviceEndpoint":{"host":"sched1.example.com","port":8081}}`),
		withData(b.node("member_0000000002", 2), "not json"))), nil, Options{})
	if l.App == nil || l.App.Name != "aurora" || len(l.App.Members) != 2 {
		t.Fatalf("app %+v", l.App)
	}
	got := []string{l.App.Members[0].Identity, l.App.Members[1].Identity}
	if got[0] != "announced leader at sched1.example.com:8081" || got[1] != "announced leader" {
		t.Errorf("identities %q", got)
	}
}
