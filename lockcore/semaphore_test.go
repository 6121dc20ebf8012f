package lockcore

import (
	"fmt"
	"testing"
)

func TestAnalyzeCuratorSemaphore(t *testing.T) {
	b := &builder{}
	lease := func(i int, owner int64) Node { return b.node(curatorName("lease-", i), owner) }
	lock := func(i int, owner int64) Node { return b.node(curatorName("lock-", i), owner) }
	self := Node{Name: "sem"}
	children := []Node{b.node("leases", 0), b.node("locks", 0)}
	names := []string{"leases", "locks"}
	if got := ExtraPaths("/sem", self, names); len(got) != 2 || got[0] != "/sem/leases" || got[1] != "/sem/locks" {
		t.Fatalf("ExtraPaths = %v", got)
	}
	// In the order Curator creates them: each acquirer's locks/ node, then,
	// once it heads locks/, its lease node.
	l0, l1 := lease(0, 1), lease(1, 2)
	head, behind := lock(0, 3), lock(1, 4)
	l2 := lease(2, 3)
	tree := Tree{Path: "/sem", Self: self, Children: children, ReadAt: readAt, Extra: map[string][]Node{
		"/sem/leases": {l0, l1, l2},
		"/sem/locks":  {head, behind},
	}}
	l := Analyze(tree, nil, Options{})
	want := fmt.Sprintf("leases/%s:h:- leases/%s:h:- leases/%s:w:leases/* locks/%s:w:leases/* locks/%s:w:locks/%s",
		curatorName("lease-", 0), curatorName("lease-", 1), curatorName("lease-", 2),
		curatorName("lock-", 0), curatorName("lock-", 1), curatorName("lock-", 0))
	if l.Recipe != RecipeCuratorSemaphore || layout(l) != want {
		t.Fatalf("recipe %s\n got %s\nwant %s", l.Recipe, layout(l), want)
	}
	if l.MaxLeases != nil {
		t.Fatalf("Curator does not store max leases, got %d", *l.MaxLeases)
	}
	for _, p := range l.Participants {
		if p.Mode != ModeLease || p.Recipe != RecipeCuratorSemaphore {
			t.Fatalf("participant %s: mode %s recipe %s", p.Node, p.Mode, p.Recipe)
		}
	}
	if !l.Participants[2].Watches.Children {
		t.Fatal("the head's lease watch should be a children watch")
	}
	// Four clients: two hold a lease, the head waits with two nodes, one
	// queues behind it.
	if l.Holders() != 2 || l.Waiters() != 2 || l.Participants[3].PartOf != l.Participants[2].Node {
		t.Fatalf("%d holding, %d waiting; head's locks/ node part of %q", l.Holders(), l.Waiters(), l.Participants[3].PartOf)
	}
	noAnomaly(t, l)
}

func TestCuratorSemaphoreHeadWithoutItsLeaseYet(t *testing.T) {
	// Session 1 holds a lease and queues for a second one: at the head of
	// locks/, before its new lease node exists, its old lease is still held.
	b := &builder{}
	held := b.node(curatorName("lease-", 0), 1)
	head := b.node(curatorName("lock-", 0), 1)
	tree := Tree{Path: "/sem", Children: []Node{b.node("leases", 0), b.node("locks", 0)}, ReadAt: readAt,
		Extra: map[string][]Node{"/sem/leases": {held}, "/sem/locks": {head}}}
	l := Analyze(tree, nil, Options{})
	if l.Participants[0].Role != RoleHolder || l.Holders() != 1 || l.Waiters() != 1 || l.Participants[1].PartOf != "" {
		t.Fatalf("a lease older than the head's locks/ node is held: %s, %d holding, %d waiting", layout(l), l.Holders(), l.Waiters())
	}
}

func TestAnalyzeKazooSemaphore(t *testing.T) {
	b := &builder{}
	self := Node{Name: "sem", Data: []byte("2")}
	self.Stat.DataLength = 1
	leaseA, leaseB := fmt.Sprintf("%032x", 0xa), fmt.Sprintf("%032x", 0xb)
	if got := ExtraPaths("/pool/sem", self, []string{leaseA, leaseB}); len(got) != 1 || got[0] != "/pool/sem-__lock__" {
		t.Fatalf("ExtraPaths = %v", got)
	}
	q0, q1 := fmt.Sprintf("%032x__lock__0000000004", 0xc), fmt.Sprintf("%032x__lock__0000000005", 0xd)
	tree := Tree{Path: "/pool/sem", Self: self, ReadAt: readAt,
		Children: []Node{b.node(leaseA, 1), b.node(leaseB, 2)},
		Extra:    map[string][]Node{"/pool/sem-__lock__": {b.node(q1, 4), b.node(q0, 3)}}}
	l := Analyze(tree, nil, Options{})
	want := leaseA + ":h:- " + leaseB + ":h:- ../sem-__lock__/" + q0 + ":w:* ../sem-__lock__/" + q1 + ":w:../sem-__lock__/" + q0
	if l.Recipe != RecipeKazooSemaphore || layout(l) != want {
		t.Fatalf("recipe %s\n got %s\nwant %s", l.Recipe, layout(l), want)
	}
	if l.MaxLeases == nil || *l.MaxLeases != 2 {
		t.Fatalf("max leases = %v, want 2", l.MaxLeases)
	}
	if l.Participants[2].Watches.Path != "/pool/sem" || l.Participants[3].Path != "/pool/sem-__lock__/"+q1 {
		t.Fatalf("paths wrong: %+v", l.Participants[2:])
	}
	noAnomaly(t, l)
}

func TestAnalyzeEphemeral(t *testing.T) {
	self := Node{Name: "resource", Data: []byte("worker-7")}
	self.Stat.EphemeralOwner, self.Stat.Czxid = 0x42, 99
	tree := Tree{Path: "/locks/resource", Self: self, ReadAt: readAt}
	if ExtraPaths("/locks/resource", self, nil) != nil {
		t.Fatal("a plain ephemeral lock needs no extra reads")
	}
	l := Analyze(tree, nil, Options{})
	if l.Recipe != RecipeEphemeral || layout(l) != "resource:h:-" || l.Participants[0].Session != 0x42 {
		t.Fatalf("plain ephemeral: %s %s", l.Recipe, layout(l))
	}
	w := NewWatchTable(map[int64][]string{0x43: {"/locks/resource"}, 0x44: {"/locks/resource"}, 0x45: {"/elsewhere"}})
	l = Analyze(tree, w, Options{})
	if fmt.Sprint(l.HiddenWaiters) != "[67 68]" || l.Waiters() != 2 || l.WatchesSource != WatchesFromServer {
		t.Fatalf("hidden waiters = %v (waiters %d)", l.HiddenWaiters, l.Waiters())
	}
	if a := anomaly(t, l, AnomalyHerd); a.Node != "resource" {
		t.Fatalf("herd on %q", a.Node)
	}
}

func TestAnalyzeMixedRecipes(t *testing.T) {
	b := &builder{}
	kazoo := fmt.Sprintf("%032x__lock__0000000000", 1)
	cur := curatorName("lock-", 1)
	l := Analyze(queueTree("/m", b.node(kazoo, 1), b.node(cur, 2)), nil, Options{})
	if l.Recipe != RecipeMixed || layout(l) != kazoo+":h:- "+cur+":h:-" {
		t.Fatalf("mixed: %s %s", l.Recipe, layout(l))
	}
	a := anomaly(t, l, AnomalyMixedRecipes)
	if len(a.Nodes) != 2 || l.Participants[0].Recipe != RecipeKazooLock || l.Participants[1].Recipe != RecipeCuratorMutex {
		t.Fatalf("mixed anomaly %+v", a)
	}
}

func TestAnalyzeGoZKSeesEveryone(t *testing.T) {
	b := &builder{}
	kazoo := fmt.Sprintf("%032x__lock__0000000000", 1)
	gozk := "_c_9f0c1e2d3c4b5a69788796a5b4c3d2e1-lock-0000000001"
	l := Analyze(queueTree("/m", b.node(kazoo, 1), b.node(gozk, 2)), nil, Options{})
	if layout(l) != kazoo+":h:- "+gozk+":w:"+kazoo {
		t.Fatalf("go-zookeeper parses every child's sequence: %s", layout(l))
	}
	anomaly(t, l, AnomalyMixedRecipes)
}

func TestSemaphoreHeadChildrenWatchIsInvisibleToServers(t *testing.T) {
	b := &builder{}
	tree := Tree{Path: "/sem", Children: []Node{b.node("leases", 0), b.node("locks", 0)}, ReadAt: readAt,
		Extra: map[string][]Node{"/sem/leases": {b.node(curatorName("lease-", 0), 1)},
			"/sem/locks": {b.node(curatorName("lock-", 0), 2)}}}
	// Session 2 heads locks/ and watches leases/'s children, which wchc does not list.
	l := Analyze(tree, NewWatchTable(map[int64][]string{9: {"/elsewhere"}}), Options{})
	head := l.Participants[1]
	if head.Role != RoleWaiter || head.Watches == nil || head.Watches.Node != "leases/*" {
		t.Fatalf("head: %+v", head)
	}
	noAnomaly(t, l)
}

func TestTreeSetParts(t *testing.T) {
	var tr Tree
	if tr.Extra != nil || tr.Related != nil {
		t.Fatal("a zero tree has parts")
	}
	tr.SetExtra("/l/leases", nil)
	tr.SetRelated("/l/fence", Node{Name: "fence"})
	if kids, read := tr.Extra["/l/leases"]; !read || kids != nil {
		t.Errorf("Extra = %v: want /l/leases read, with no children", tr.Extra)
	}
	if n, read := tr.Related["/l/fence"]; !read || n.Name != "fence" {
		t.Errorf("Related = %v", tr.Related)
	}
	if _, read := tr.Extra["/l/other"]; read {
		t.Error("a path not set reads as read")
	}
}
