package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"
)

const holdTimeout = 60 * time.Second

// readReport reads paths once and then the servers' watch table, as show
// does, in a fresh session that has no credentials.
func readReport(t *testing.T, server string, paths ...string) report.Report {
	t.Helper()
	target, err := zkwatch.ParseConnectString(server)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := report.Report{Server: server, WatchesSource: lockcore.WatchesFromRecipe}
	var trees []lockcore.Tree
	for _, p := range paths {
		tree, err := conn.ReadTree(ctx, p)
		if err != nil {
			r.Errors = append(r.Errors, report.PathError{Path: p, Err: err})
			continue
		}
		trees = append(trees, tree)
	}
	// A table read after one that was read after the trees, as the CLI's
	// reader does: each waiter's client had its chance to set its watch,
	// and one absent from the table is judged.
	var last int64
	for _, tree := range trees {
		last = max(last, tree.LastZxid())
	}
	var table *lockcore.WatchTable
	for range 2 {
		var err error
		if table, err = conn.ServerWatches(ctx); err != nil {
			t.Fatalf("the test server allows wchc: %v", err)
		}
	}
	table = table.Since(last)
	r.WatchesSource = lockcore.WatchesFromServer
	for _, tree := range trees {
		r.Locks = append(r.Locks, lockcore.Analyze(tree, table, lockcore.Options{}))
	}
	return r
}

// waitLock reads path until ok accepts its analysis; the clients set their
// watches a moment after their nodes appear.
func waitLock(t *testing.T, server, path string, ok func(lockcore.Lock) bool) lockcore.Lock {
	t.Helper()
	deadline := time.Now().Add(holdTimeout)
	for {
		r := readReport(t, server, path)
		if len(r.Locks) == 1 && ok(r.Locks[0]) {
			return r.Locks[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reached the expected state: %+v %v", path, r.Locks, r.Errors)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// settled: every waiter watches something, per the servers' table.
func settled(l lockcore.Lock) bool {
	for _, p := range l.Participants {
		if p.Role == lockcore.RoleWaiter && p.Watches == nil {
			return false
		}
	}
	return l.WatchesSource == lockcore.WatchesFromServer
}

func sessionOf(cs []peers.Contender, session int64) string {
	for _, c := range cs {
		if c.Session == session {
			return c.ID
		}
	}
	return fmt.Sprintf("unknown session %#x", session)
}

func anomalyKinds(l lockcore.Lock) []string {
	var out []string
	for _, a := range l.Anomalies {
		out = append(out, string(a.Kind)+": "+a.Detail)
	}
	return out
}

func asJSON(t *testing.T, r report.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func asText(t *testing.T, r report.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestIntegrationElections runs three candidates of each real election
// recipe and compares what the analysis says with what the clients say:
// the one whose client leads is the holder, the others wait in order, each
// watching its predecessor (the servers' table), with no anomaly. Then the
// leader steps down and the next one leads.
func TestIntegrationElections(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	server := srv.Addr()
	for _, tc := range []struct {
		kind    peers.Kind
		variant string
		recipe  lockcore.Recipe
		names   *regexp.Regexp
	}{
		{peers.Curator, "leaderlatch", lockcore.RecipeCuratorLeaderLatch, regexp.MustCompile(`^_c_[-0-9a-f]{36}-latch-\d{10}$`)},
		{peers.ZkRecipe, "election", lockcore.RecipeZKElection, regexp.MustCompile(`^n_\d{10}$`)},
		// kazoo's Election is a kazoo Lock, and Curator's LeaderSelector
		// an InterProcessMutex: their trees cannot be told from those locks.
		{peers.Kazoo, "election", lockcore.RecipeKazooLock, regexp.MustCompile(`^[0-9a-f]{32}__lock__\d{10}$`)},
		{peers.Curator, "leaderselector", lockcore.RecipeCuratorMutex, regexp.MustCompile(`^_c_[-0-9a-f]{36}-lock-\d{10}$`)},
	} {
		t.Run(string(tc.kind)+"-"+tc.variant, func(t *testing.T) {
			p := peers.Start(t, tc.kind, server)
			path := root + "/elections/" + string(tc.kind) + "-" + tc.variant
			var cs []peers.Contender
			for i := 0; i < 3; i++ {
				cs = append(cs, p.Acquire(t, fmt.Sprintf("candidate%d", i), tc.variant, path))
				if i == 0 {
					p.WaitHeld(t, "candidate0", holdTimeout)
				}
			}
			for round, leader := range []int{0, 1} {
				if round > 0 {
					p.Release(t, cs[round-1].ID)
					p.WaitHeld(t, cs[leader].ID, holdTimeout)
				}
				want := len(cs) - round
				l := waitLock(t, server, path, func(l lockcore.Lock) bool { return len(l.Participants) == want && settled(l) })
				if l.Recipe != tc.recipe || l.Holders() != 1 || l.Waiters() != want-1 || len(l.Anomalies) != 0 {
					t.Fatalf("round %d: recipe %s, %d holding, %d waiting, anomalies %v", round, l.Recipe, l.Holders(), l.Waiters(), anomalyKinds(l))
				}
				for i, part := range l.Participants {
					id := sessionOf(cs, part.Session)
					if (part.Role == lockcore.RoleHolder) != p.Held(id) {
						t.Fatalf("round %d: %s (%s) is a %s; its client says it leads: %v", round, part.Node, id, part.Role, p.Held(id))
					}
					if id != cs[leader+i].ID {
						t.Fatalf("round %d: position %d is %s, want %s", round, i, id, cs[leader+i].ID)
					}
					if i > 0 && (part.Watches.Node != l.Participants[i-1].Node || len(l.Participants[i-1].Watchers) != 1 || l.Participants[i-1].Watchers[0] != part.Session) {
						t.Fatalf("round %d: %s watches %v; its predecessor's watchers %v", round, part.Node, part.Watches, l.Participants[i-1].Watchers)
					}
					if string(part.Data) != id {
						t.Fatalf("the candidate's id is its node's data: %q, want %q", part.Data, id)
					}
					if !tc.names.MatchString(part.Node) {
						t.Fatalf("%s does not match %s", part.Node, tc.names)
					}
				}
			}
		})
	}
}

// TestIntegrationCuratorSemaphoreCountsClients: one client holds the only
// lease of an InterProcessSemaphoreV2, the next waits at the head of
// locks/ with its lease node already made, a third queues behind it. Three
// clients, four waiting-or-holding nodes: "1 holding, 2 waiting".
func TestIntegrationCuratorSemaphoreCountsClients(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	p := peers.Start(t, peers.Curator, srv.Addr())
	p.Acquire(t, "s0", "semaphore:1", root+"/sem")
	p.WaitHeld(t, "s0", holdTimeout)
	p.Acquire(t, "s1", "semaphore:1", root+"/sem")
	p.Acquire(t, "s2", "semaphore:1", root+"/sem")
	l := waitLock(t, srv.Addr(), root+"/sem", func(l lockcore.Lock) bool { return len(l.Participants) == 4 })
	if p.Held("s1") || p.Held("s2") || !p.Held("s0") {
		t.Fatal("only s0's client may say it holds a lease")
	}
	if l.Holders() != 1 || l.Waiters() != 2 {
		t.Fatalf("%d holding, %d waiting, want 1 and 2: %+v", l.Holders(), l.Waiters(), l.Participants)
	}
	head := l.Participants[2]
	if !strings.HasPrefix(head.Node, "locks/") || !strings.HasPrefix(head.PartOf, "leases/") {
		t.Fatalf("the head's locks/ node should be part of its lease's acquisition: %+v", head)
	}
	r := report.Report{Server: srv.Addr(), Locks: []lockcore.Lock{l}}
	if text := asText(t, r); !strings.Contains(text, "1 holding, 2 waiting") {
		t.Fatalf("text:\n%s", text)
	}
	var j struct {
		Locks []struct {
			Holders, Waiters int
			Participants     []struct {
				PartOf string `json:"part_of"`
			}
		}
	}
	if err := json.Unmarshal([]byte(asJSON(t, r)), &j); err != nil {
		t.Fatal(err)
	}
	if lj := j.Locks[0]; lj.Holders != 1 || lj.Waiters != 2 || len(lj.Participants) != 4 || lj.Participants[2].PartOf != head.PartOf {
		t.Fatalf("JSON: %+v", lj)
	}
}

// TestIntegrationUnreadableContenderData: go-zookeeper zk.Lock contenders
// whose nodes only their own credentials may read, under a parent anyone
// may list. The queue is shown from the children list and exists, with the
// data marked unreadable; a parent that cannot be listed is an error.
func TestIntegrationUnreadableContenderData(t *testing.T) {
	srv, root := shared.Start(t), shared.Root(t)
	admin := srv.Connect(t)
	for _, p := range []string{root + "/acl", root + "/acl/open", root + "/acl/closed"} {
		acl := zk.WorldACL(zk.PermAll)
		if p == root+"/acl/closed" {
			acl = zk.DigestACL(zk.PermAll, "owner", "secret")
		}
		if _, err := admin.Create(p, nil, 0, acl); err != nil {
			t.Fatal(err)
		}
	}
	private := zk.DigestACL(zk.PermAll, "owner", "secret")
	var sessions []int64
	for i := 0; i < 3; i++ {
		c := srv.Connect(t)
		if err := c.AddAuth("digest", []byte("owner:secret")); err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, c.SessionID())
		l := zk.NewLock(c, root+"/acl/open", private)
		acquired := make(chan error, 1)
		go func() { acquired <- l.Lock() }()
		if i == 0 {
			if err := <-acquired; err != nil {
				t.Fatal(err)
			}
		}
		waitLock(t, srv.Addr(), root+"/acl/open", func(l lockcore.Lock) bool { return len(l.Participants) == i+1 })
	}
	l := waitLock(t, srv.Addr(), root+"/acl/open", func(l lockcore.Lock) bool { return len(l.Participants) == 3 && settled(l) })
	if l.Recipe != lockcore.RecipeGoZKLock || l.Holders() != 1 || l.Waiters() != 2 || len(l.Anomalies) != 0 {
		t.Fatalf("recipe %s, %d holding, %d waiting, anomalies %v", l.Recipe, l.Holders(), l.Waiters(), anomalyKinds(l))
	}
	for i, p := range l.Participants {
		if p.Session != sessions[i] || !p.DataDenied || p.Token == 0 {
			t.Fatalf("participant %d: session %#x (want %#x), data denied %v, token %#x", i, p.Session, sessions[i], p.DataDenied, p.Token)
		}
	}
	r := readReport(t, srv.Addr(), root+"/acl/open", root+"/acl/closed")
	if len(r.Locks) != 1 || len(r.Errors) != 1 || r.Errors[0].Path != root+"/acl/closed" {
		t.Fatalf("locks %d, errors %v: only the parent that cannot be listed fails", len(r.Locks), r.Errors)
	}
	js := asJSON(t, r)
	if strings.Count(js, `"data_unreadable": "acl"`) != 3 || strings.Contains(js, `"data": ""`) {
		t.Fatalf("JSON:\n%s", js)
	}
	if text := asText(t, r); !strings.Contains(text, "the data of 3 of 3 contenders is unreadable") {
		t.Fatalf("text:\n%s", text)
	}
}

// TestIntegrationWatchFieldsAgree: behind a go-zookeeper zk.Lock holder,
// one session creates two contender nodes and watches nothing (a client
// that lost track of them). By the servers' table both watch nothing, said
// so, and nobody is listed as watching the holder; by the recipe's rule
// each watches its predecessor and is listed among that node's watchers.
func TestIntegrationWatchFieldsAgree(t *testing.T) {
	srv, root := shared.Start(t), shared.Root(t)
	holder := srv.Connect(t)
	if _, err := holder.Create(root+"/agree", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if err := zk.NewLock(holder, root+"/agree", zk.WorldACL(zk.PermAll)).Lock(); err != nil {
		t.Fatal(err)
	}
	lost := srv.Connect(t)
	for i := 0; i < 2; i++ {
		if _, err := lost.CreateProtectedEphemeralSequential(root+"/agree/lock-", nil, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	l := waitLock(t, srv.Addr(), root+"/agree", func(l lockcore.Lock) bool { return len(l.Participants) == 3 })
	unwatched := 0
	for _, a := range l.Anomalies {
		if a.Kind == lockcore.AnomalyUnwatchedWaiter {
			unwatched++
		}
	}
	ps := l.Participants
	if ps[1].Watches != nil || ps[2].Watches != nil || unwatched != 2 || !strings.Contains(ps[2].Note, "owns 2 contenders") {
		t.Fatalf("by the table neither of session %#x's waiters watches anything: %+v", lost.SessionID(), ps)
	}
	if len(ps[0].Watchers) != 0 || len(ps[1].Watchers) != 0 {
		t.Fatalf("no session watches the holder or the first waiter: %v %v", ps[0].Watchers, ps[1].Watchers)
	}
	tree := lockcore.Tree{Path: root + "/agree", ReadAt: time.Now()}
	for _, p := range ps {
		data, stat, err := holder.Get(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		tree.Children = append(tree.Children, lockcore.Node{Name: p.Path[len(root+"/agree/"):], Stat: *stat, Data: data})
	}
	byRule := lockcore.Analyze(tree, nil, lockcore.Options{})
	for i, p := range byRule.Participants[1:] {
		prev := byRule.Participants[i]
		if p.Watches == nil || p.Watches.Node != prev.Node || fmt.Sprint(prev.Watchers) != fmt.Sprint([]int64{p.Session}) {
			t.Fatalf("by the rule %s watches %v, and %s's watchers are %v", p.Node, p.Watches, prev.Node, prev.Watchers)
		}
	}
	if js := asJSON(t, report.Report{Locks: []lockcore.Lock{byRule}}); !strings.Contains(js, `"watches_source": "recipe"`) {
		t.Fatalf("each lock says where its watch fields come from:\n%s", js)
	}
}
