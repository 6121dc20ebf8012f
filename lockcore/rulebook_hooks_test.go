package lockcore

import (
	"strings"
	"testing"
)

// Every built-in entry is found by the book: for a tree of its own, the
// book's search returns it, and the analysis names the lock after it. An
// entry no tree here reaches fails the test, so a new one comes with its
// own.
func TestEveryBuiltinEntryIsFoundByTheBook(t *testing.T) {
	var b builder
	uuid := "0f0e0d0c-0b0a-4908-8706-050403020100"
	hex := "0f0e0d0c0b0a49088706050403020100"
	kids := func(names ...string) []Node {
		var out []Node
		for i, n := range names {
			out = append(out, b.node(n, int64(10+i)))
		}
		return out
	}
	leaf := func(p, data string) Tree {
		return Tree{Path: p, Self: withData(b.node(BaseName(p), 7), data), ReadAt: readAt}
	}
	persistent := Node{Name: "lock"}
	trees := map[Recipe]Tree{
		RecipeCuratorMutex:       queueTree("/l", kids("_c_"+uuid+"-lock-0000000001")...),
		RecipeCuratorRWLock:      queueTree("/l", kids("_c_"+uuid+"-__READ__0000000001")...),
		RecipeCuratorSemaphore:   {Path: "/s", Self: persistent, Children: kids(curatorLeasesDir, curatorLocksDir), ReadAt: readAt},
		RecipeGoZKLock:           queueTree("/l", kids("_c_"+hex+"-lock-0000000001")...),
		RecipeKazooLock:          queueTree("/l", kids(hex+"__lock__0000000001")...),
		RecipeKazooRWLock:        queueTree("/l", kids(hex+"__rlock__0000000001")...),
		RecipeKazooSemaphore:     {Path: "/s", Self: withData(Node{Name: "s"}, "2"), Children: kids(hex), ReadAt: readAt},
		RecipeZKWriteLock:        queueTree("/l", kids("x-72057594037927937-0000000001")...),
		RecipeCuratorLeaderLatch: queueTree("/l", kids("_c_"+uuid+"-latch-0000000001")...),
		RecipeZKElection:         queueTree("/l", kids("n_0000000001")...),
		RecipeHostRW:             queueTree("/l", kids("web1-W-0000000001")...),
		RecipeSessionLock:        queueTree("/l", kids("lock-72057594037927937-0000000001")...),
		RecipeKafkaController:    leaf("/kafka/controller", `{"version":2,"brokerid":1,"timestamp":"1700000000000"}`),
		RecipeHadoopHA:           leaf("/hadoop-ha/ns1/ActiveStandbyElectorLock", "nn1"),
		RecipeHBaseMaster:        leaf("/hbase/master", string(unhex(t, hbaseMaster1))),
		RecipeSolrElection:       queueTree("/overseer_elect/election", kids("72057594037927937-n1:8983_solr-n_0000000001")...),
		RecipeAccumuloLock:       queueTree("/accumulo/i/managers/lock", kids("zlock#"+uuid+"#0000000001", "zlock-0000000002")...),
		RecipeAccumuloFate:       queueTree("/accumulo/i/table_locks/2a", kids("flock#0000000001")...),
		RecipeHBaseTableLock:     {Path: "/hbase/table-lock/t", Self: persistent, ReadAt: readAt},
		RecipeHelixController:    leaf("/c/CONTROLLER/LEADER", `{"id":"ctrl1_12000","simpleFields":{"SESSION_ID":"7"}}`),
		RecipeMesos:              queueTree("/mesos", kids("json.info_0000000001", "info_0000000002", "log_replicas")...),
		RecipePulsarLeader:       leaf("/loadbalance/leader", `{"serviceUrl":"http://b1:8080"}`),
		RecipePulsarBundle:       leaf("/namespace/t/ns/0x00000000_0x40000000", `{"nativeUrl":"pulsar://b2:6650"}`),
		RecipeClickHouseDDL:      {Path: "/ch/ddl/query-0000000012", Self: persistent, Children: kids("active", "finished"), ReadAt: readAt},
		RecipeHive:               queueTree("/hive/db/t", kids("LOCK-SHARED-0000000001", "p=1")...),
		RecipeEphemeral:          leaf("/app/lock", "host1"),
	}
	for _, e := range (*Book)(nil).Entries() {
		tree, ok := trees[Recipe(e.Name)]
		if !ok {
			t.Errorf("%s: no tree of its own here", e.Name)
			continue
		}
		names := make([]string, len(tree.Children))
		for i, c := range tree.Children {
			names[i] = c.Name
		}
		if c := (*Book)(nil).describes(tree.Path, tree.Self, names, nil, false); c == nil || c.Name != e.Name {
			t.Errorf("%s: the book found %v for %s", e.Name, c, tree.Path)
		}
		if l := Analyze(tree, nil, Options{}); l.Entry != e.Name || l.Recipe != Recipe(e.Name) {
			t.Errorf("%s: read as recipe %s, entry %q", e.Name, l.Recipe, l.Entry)
		}
	}
}

// The user's entries come before the built-in ones, a single node too:
// a plain ephemeral node a user's single-node entry names is read by it,
// its holder named by the entry's identity.
func TestUserSingleNodeEntryReadsAPresentNode(t *testing.T) {
	book, err := NewBook([]Entry{{Name: "acme-leader", Paths: []string{"/acme/leader"}, Grant: GrantSingleNode, Identity: `data:host=(\w+)`}})
	if err != nil {
		t.Fatal(err)
	}
	var b builder
	tree := Tree{Path: "/acme/leader", Self: withData(b.node("leader", 7), "host=web1"), ReadAt: readAt}
	l := Analyze(tree, nil, Options{Book: book})
	if l.Entry != "acme-leader" || len(l.Participants) != 1 || !strings.Contains(l.Participants[0].Identity, "web1") || l.Participants[0].Role != RoleHolder {
		t.Fatalf("entry %q, participants %+v", l.Entry, l.Participants)
	}
	if l := Analyze(tree, nil, Options{}); l.Entry != string(RecipeEphemeral) {
		t.Fatalf("without the entry: %q", l.Entry)
	}
}

// explain says which hooks read a built-in entry's lock, and never offers
// the plain node's entry, whose paths take every node, as a near miss.
func TestExplainNamesTheHooks(t *testing.T) {
	var b builder
	hex := "0f0e0d0c0b0a49088706050403020100"
	tree := Tree{Path: "/s", Self: withData(Node{Name: "s"}, "2"), Children: []Node{b.node(hex, 7)}, ReadAt: readAt}
	x := (*Book)(nil).Explain(tree, Analyze(tree, nil, Options{}))
	why := strings.Join(x.Why, "; ")
	if x.Entry == nil || x.Entry.Name != string(RecipeKazooSemaphore) || !strings.Contains(why, "read by its reads hook") || !strings.Contains(why, "shape, reads, extra") {
		t.Fatalf("entry %v, why %s", x.Entry, why)
	}
	for _, n := range x.Near {
		if n.Entry.Name == string(RecipeEphemeral) {
			t.Fatalf("near: %+v", n)
		}
	}
}
