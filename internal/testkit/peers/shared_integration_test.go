package peers_test

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
)

// TestIntegrationCuratorShared drives InterProcessReadWriteLock (readers
// share, a writer waits for them, a later reader waits for the writer), the
// write+read downgrade and InterProcessSemaphoreV2.
func TestIntegrationCuratorShared(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	conn := srv.Connect(t)
	p := peers.Start(t, peers.Curator, srv.Addr())

	t.Run("read-write", func(t *testing.T) {
		r1 := p.Acquire(t, "r1", "read", root+"/rw")
		r2 := p.Acquire(t, "r2", "read", root+"/rw")
		p.WaitHeld(t, "r1", holdTimeout)
		p.WaitHeld(t, "r2", holdTimeout)
		w3 := p.Acquire(t, "w3", "write", root+"/rw")
		r4 := p.Acquire(t, "r4", "read", root+"/rw")
		assertNames(t, regexp.MustCompile(`^_c_[-0-9a-f]{36}-__READ__\d{10}$`), r1, r2, r4)
		assertNames(t, regexp.MustCompile(`^_c_[-0-9a-f]{36}-__WRIT__\d{10}$`), w3)
		assertNoneHolds(t, p, []string{"w3", "r4"}, 300*time.Millisecond)
		p.Release(t, "r1")
		p.Release(t, "r2")
		p.WaitHeld(t, "w3", holdTimeout)
		assertNoneHolds(t, p, []string{"r4"}, 300*time.Millisecond)
		p.Release(t, "w3")
		p.WaitHeld(t, "r4", holdTimeout)
		p.Release(t, "r4")
	})

	t.Run("downgrade", func(t *testing.T) {
		d := p.Acquire(t, "d", "write+read", root+"/downgrade")
		p.WaitHeld(t, "d", holdTimeout)
		// One session, two nodes: its write node, then a sequential read node.
		want := []*regexp.Regexp{
			regexp.MustCompile(`-__WRIT__0000000000$`),
			regexp.MustCompile(`-__READ__0000000001$`),
		}
		nodes := owned(t, conn, root+"/downgrade", d.Session)
		if len(nodes) != 2 || !want[0].MatchString(nodes[0]) || !want[1].MatchString(nodes[1]) {
			t.Errorf("downgraded session owns %q, want a __WRIT__ and a __READ__ node", nodes)
		}
		p.Release(t, "d")
	})

	t.Run("semaphore", func(t *testing.T) {
		p.Acquire(t, "s1", "semaphore:2", root+"/sem")
		p.Acquire(t, "s2", "semaphore:2", root+"/sem")
		p.WaitHeld(t, "s1", holdTimeout)
		p.WaitHeld(t, "s2", holdTimeout)
		s3 := p.Acquire(t, "s3", "semaphore:2", root+"/sem")
		if dir := path.Dir(s3.Node); dir != root+"/sem/locks" {
			t.Errorf("waiting s3's first node %s is not under /sem/locks", s3.Node)
		}
		assertNoneHolds(t, p, []string{"s3"}, 300*time.Millisecond)
		p.Release(t, "s1")
		p.WaitHeld(t, "s3", holdTimeout)
		p.Release(t, "s2")
		p.Release(t, "s3")
	})
}

// TestIntegrationKazooShared drives kazoo's ReadLock and WriteLock (readers
// share, a writer waits for them) and its Semaphore.
func TestIntegrationKazooShared(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	p := peers.Start(t, peers.Kazoo, srv.Addr())

	t.Run("read-write", func(t *testing.T) {
		r1 := p.Acquire(t, "r1", "read", root+"/rw")
		r2 := p.Acquire(t, "r2", "read", root+"/rw")
		p.WaitHeld(t, "r1", holdTimeout)
		p.WaitHeld(t, "r2", holdTimeout)
		w3 := p.Acquire(t, "w3", "write", root+"/rw")
		assertNames(t, regexp.MustCompile(`^[0-9a-f]{32}__rlock__\d{10}$`), r1, r2)
		assertNames(t, regexp.MustCompile(`^[0-9a-f]{32}__lock__\d{10}$`), w3)
		assertNoneHolds(t, p, []string{"w3"}, 300*time.Millisecond)
		p.Release(t, "r1")
		p.Release(t, "r2")
		p.WaitHeld(t, "w3", holdTimeout)
		p.Release(t, "w3")
	})

	t.Run("semaphore", func(t *testing.T) {
		p.Acquire(t, "s1", "semaphore:2", root+"/sem")
		p.Acquire(t, "s2", "semaphore:2", root+"/sem")
		p.WaitHeld(t, "s1", holdTimeout)
		p.WaitHeld(t, "s2", holdTimeout)
		s3 := p.Acquire(t, "s3", "semaphore:2", root+"/sem")
		if dir := path.Dir(s3.Node); dir != root+"/sem-__lock__" {
			t.Errorf("waiting s3's first node %s is not under /sem-__lock__", s3.Node)
		}
		assertNoneHolds(t, p, []string{"s3"}, 300*time.Millisecond)
		p.Release(t, "s1")
		p.WaitHeld(t, "s3", holdTimeout)
		p.Release(t, "s2")
		p.Release(t, "s3")
	})
}

// TestIntegrationKazooReadLockCycle pins a kazoo 2.8.0 bug that the
// inspector must show as a wait-for cycle. ReadLock's predecessor search
// only matches "__lock__" names, so a reader never finds itself and watches
// the LAST "__lock__" node in the whole queue, even one queued after it.
// With W1 (holding), R2 (read) and W3 (write) queued, releasing W1 leaves R2
// watching W3 and W3 watching R2: nobody ever gets the lock.
func TestIntegrationKazooReadLockCycle(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	p := peers.Start(t, peers.Kazoo, srv.Addr())
	p.Acquire(t, "w1", "write", root+"/cycle")
	p.WaitHeld(t, "w1", holdTimeout)
	r2 := p.Acquire(t, "r2", "read", root+"/cycle")
	w3 := p.Acquire(t, "w3", "write", root+"/cycle")
	p.Release(t, "w1")

	// Wait for R2 to re-arm its watch after W1 went, then look.
	deadline := time.Now().Add(holdTimeout)
	for !slices.Contains(watches(t, srv.Addr())[r2.Session], w3.Node) {
		if time.Now().After(deadline) {
			t.Fatalf("r2 never watched w3's node %s; wchc: %v", w3.Node, watches(t, srv.Addr()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if w := watches(t, srv.Addr()); !slices.Contains(w[w3.Session], r2.Node) {
		t.Errorf("w3 watches %q, want r2's node %s", w[w3.Session], r2.Node)
	}
	assertNoneHolds(t, p, []string{"r2", "w3"}, time.Second)

	// Giving up R2 breaks the cycle.
	p.Release(t, "r2")
	p.WaitHeld(t, "w3", holdTimeout)
}

// assertNames checks the contenders' node names against re.
func assertNames(t *testing.T, re *regexp.Regexp, cs ...peers.Contender) {
	t.Helper()
	for _, c := range cs {
		if !re.MatchString(path.Base(c.Node)) {
			t.Errorf("%s: node name %q does not match %v", c.ID, path.Base(c.Node), re)
		}
	}
}

// owned returns the names of dir's children owned by session, in sequence
// order.
func owned(t *testing.T, conn *zk.Conn, dir string, session int64) []string {
	t.Helper()
	children, _, err := conn.Children(dir)
	if err != nil {
		t.Fatalf("children of %s: %v", dir, err)
	}
	var out []string
	for _, name := range children {
		_, stat, err := conn.Exists(path.Join(dir, name))
		if err != nil {
			t.Fatalf("exists: %v", err)
		}
		if stat != nil && stat.EphemeralOwner == session {
			out = append(out, name)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(seq(a), seq(b)) })
	return out
}
