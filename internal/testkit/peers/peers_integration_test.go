package peers_test

import (
	"errors"
	"io"
	"net"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

const holdTimeout = 30 * time.Second

// shared is the package's ZooKeeper; each test works under a root of its
// own.
var shared zktest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Stop()
	os.Exit(code)
}

// exclusive is each kind's exclusive lock, and the name its contenders'
// nodes get (recipes.md).
var exclusive = []struct {
	kind    peers.Kind
	variant string
	name    *regexp.Regexp
}{
	{peers.Curator, "mutex", regexp.MustCompile(`^_c_[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-lock-\d{10}$`)},
	{peers.Kazoo, "lock", regexp.MustCompile(`^[0-9a-f]{32}__lock__\d{10}$`)},
	{peers.ZkRecipe, "writelock", regexp.MustCompile(`^x-\d+-\d{10}$`)},
	{peers.GoZk, "lock", regexp.MustCompile(`^_c_[0-9a-f]{32}-lock-\d{10}$`)},
}

// TestIntegrationFIFO queues three contenders of each kind on one lock and
// checks that they get it in queue order, one at a time; then that a waiter
// can give up, and that Close ends every session.
func TestIntegrationFIFO(t *testing.T) {
	t.Parallel()
	srv, root := shared.Start(t), shared.Root(t)
	conn := srv.Connect(t)
	for _, tc := range exclusive {
		t.Run(string(tc.kind), func(t *testing.T) {
			p := peers.Start(t, tc.kind, srv.Addr())
			lock := root + "/fifo/" + string(tc.kind)
			ids := []string{"c1", "c2", "c3"}
			var queue []peers.Contender
			for i, id := range ids {
				c := p.Acquire(t, id, tc.variant, lock)
				if dir := path.Dir(c.Node); dir != lock {
					t.Errorf("%s: node %s is not under %s", id, c.Node, lock)
				}
				if name := path.Base(c.Node); !tc.name.MatchString(name) {
					t.Errorf("%s: node name %q does not match %v", id, name, tc.name)
				}
				queue = append(queue, c)
				if i == 0 {
					p.WaitHeld(t, id, holdTimeout)
				}
			}
			assertSessionsDistinct(t, queue)
			assertSequenceOrder(t, queue)
			for i, id := range ids {
				p.WaitHeld(t, id, holdTimeout)
				assertOnlyHolder(t, p, ids, id)
				p.Release(t, id)
				assertGone(t, conn, queue[i].Node)
			}

			// A waiter that gives up leaves the queue and the holder alone.
			p.Acquire(t, "c1", tc.variant, lock)
			p.WaitHeld(t, "c1", holdTimeout)
			waiter := p.Acquire(t, "c2", tc.variant, lock)
			p.Release(t, "c2")
			assertGone(t, conn, waiter.Node)
			if !p.Held("c1") {
				t.Error("c1 lost the lock when its waiter gave up")
			}

			// Close ends every session, holding or waiting.
			waiter = p.Acquire(t, "c2", tc.variant, lock)
			p.Close()
			assertGone(t, conn, waiter.Node)
			// assertGone above waited for the last node; none may remain.
			// Curator makes the lock's parent a container node, which the
			// server deletes once empty (its container check runs every
			// minute): gone, it has no children either.
			if children, _, err := conn.Children(lock); (err != nil && !errors.Is(err, zk.ErrNoNode)) || len(children) > 0 {
				t.Errorf("after Close, %s has children %q (%v)", lock, children, err)
			}
		})
	}
}

// assertOnlyHolder checks, for a moment, that no contender but holder says
// it holds the lock.
func assertOnlyHolder(t *testing.T, p *peers.Peer, ids []string, holder string) {
	t.Helper()
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		for _, id := range ids {
			if id != holder && p.Held(id) {
				t.Fatalf("%s holds while %s does", id, holder)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertNoneHolds checks, for a while, that none of ids says it holds.
func assertNoneHolds(t *testing.T, p *peers.Peer, ids []string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, id := range ids {
			if p.Held(id) {
				t.Fatalf("%s holds", id)
			}
		}
	}
}

func assertSessionsDistinct(t *testing.T, cs []peers.Contender) {
	t.Helper()
	seen := map[int64]string{}
	for _, c := range cs {
		if c.Session == 0 {
			t.Errorf("%s has no session", c.ID)
		}
		if other, ok := seen[c.Session]; ok {
			t.Errorf("%s and %s share session %#x", c.ID, other, c.Session)
		}
		seen[c.Session] = c.ID
	}
}

// assertSequenceOrder checks that the contenders' sequence suffixes grow in
// the order they were queued.
func assertSequenceOrder(t *testing.T, cs []peers.Contender) {
	t.Helper()
	for i := 1; i < len(cs); i++ {
		if seq(cs[i].Node) <= seq(cs[i-1].Node) {
			t.Errorf("%s (%s) is not queued after %s (%s)", cs[i].ID, cs[i].Node, cs[i-1].ID, cs[i-1].Node)
		}
	}
}

// seq is a node's ten-digit sequence suffix, which sorts as text.
func seq(node string) string { return node[len(node)-10:] }

// assertGone checks that node no longer exists.
// assertGone waits for node to go. A client process that exits while its
// session is closing may leave the server to expire the session, so the
// node may outlive the release by up to a session timeout.
func assertGone(t *testing.T, conn *zk.Conn, node string) {
	t.Helper()
	deadline := time.Now().Add(2 * sessionTimeoutForTests)
	for {
		ok, _, err := conn.Exists(node)
		if err != nil {
			t.Fatalf("exists %s: %v", node, err)
		}
		if !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s still exists %s after its contender was released", node, 2*sessionTimeoutForTests)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sessionTimeoutForTests is the peers' session timeout.
const sessionTimeoutForTests = 10 * time.Second

// watches returns the paths each session watches, from the server's wchc
// reply. ZooKeeper 3.8 lists data and exists watches there, not child
// watches.
func watches(t *testing.T, addr string) map[int64][]string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("wchc: %v", err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "wchc"); err != nil {
		t.Fatalf("wchc: %v", err)
	}
	reply, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("wchc: %v", err)
	}
	out := map[int64][]string{}
	var session int64
	for _, line := range strings.Split(string(reply), "\n") {
		switch {
		case strings.HasPrefix(line, "0x"):
			id, err := strconv.ParseUint(strings.TrimSpace(line[2:]), 16, 64)
			if err != nil {
				t.Fatalf("wchc: bad session line %q", line)
			}
			session = int64(id)
		case strings.HasPrefix(line, "\t/"):
			out[session] = append(out[session], strings.TrimSpace(line))
		}
	}
	return out
}
