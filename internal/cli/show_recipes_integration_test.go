package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// waitFor polls show until ok accepts it.
func waitFor(t *testing.T, server, path string, ok func(showJSON) bool) showJSON {
	t.Helper()
	var s showJSON
	zktest.WaitUntil(t, 20*time.Second, func() string {
		if s = show(t, server, path); ok(s) {
			return ""
		}
		return fmt.Sprintf("show never reached the expected state: %+v", s)
	})
	return s
}

func TestIntegrationShowKazooReaderDeadlock(t *testing.T) {
	t.Parallel()
	// kazoo 2.8's ReadLock never finds itself among the write-lock nodes it
	// filters for, so a reader woken by a released write waits on the newest
	// write in the queue, even one behind it: R3 and R4 end up waiting on W6,
	// which waits on W5, which waits on R4.
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	p := peers.Start(t, peers.Kazoo, server)
	cs := queue(t, p, root+"/locks/kazoo-deadlock", "RRWRRWWR", map[byte]string{'R': "read", 'W': "write"})
	p.WaitHeld(t, "c0", 30*time.Second)
	p.WaitHeld(t, "c1", 30*time.Second)
	p.Release(t, "c0")
	p.Release(t, "c1")
	p.WaitHeld(t, "c2", 30*time.Second)
	p.Release(t, "c2")
	rel := func(i int) string { return strings.TrimPrefix(cs[i].Node, root+"/locks/kazoo-deadlock/") }
	s := waitFor(t, server, root+"/locks/kazoo-deadlock", func(s showJSON) bool {
		ps := s.Locks[0].Participants
		return len(ps) == 5 && ps[0].Watches != nil && *ps[0].Watches == rel(6) && ps[1].Watches != nil && *ps[1].Watches == rel(6)
	})
	time.Sleep(time.Second) // the clients have had every chance to take the lock
	for _, id := range []string{"c3", "c4", "c5", "c6", "c7"} {
		if p.Held(id) {
			t.Fatalf("kazoo %s holds: the deadlock this test documents did not happen", id)
		}
	}
	l := s.Locks[0]
	if l.Holders != 0 || l.Participants[0].Role != "waiter" || !strings.Contains(l.Participants[0].Note, "kazoo before 2.9") {
		t.Fatalf("readers R3/R4 must be shown waiting: %+v", l.Participants[0])
	}
	var cycle []string
	for _, a := range l.Anomalies {
		if a.Kind == "wait-cycle" {
			cycle = a.Nodes
		}
	}
	want := []string{rel(4), rel(5), rel(6)}
	if !slices.Equal(cycle, want) {
		t.Fatalf("wait-cycle = %v, want %v (anomalies %v)", cycle, want, kinds(s))
	}
}

func TestIntegrationShowSemaphores(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	for _, tc := range []struct {
		kind      peers.Kind
		recipe    string
		maxLeases *int
	}{
		{peers.Curator, "curator-semaphore", nil},
		{peers.Kazoo, "kazoo-semaphore", new(int)},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			p := peers.Start(t, tc.kind, server)
			path := root + "/sem/" + string(tc.kind)
			var cs []peers.Contender
			for i := 0; i < 4; i++ {
				cs = append(cs, p.Acquire(t, fmt.Sprintf("c%d", i), "semaphore:2", path))
				if i < 2 {
					p.WaitHeld(t, fmt.Sprintf("c%d", i), 30*time.Second)
				}
			}
			// A client sets its watch just after it creates its node: a
			// read in between shows a waiter that watches nothing yet.
			s := waitFor(t, server, path, func(s showJSON) bool {
				if len(s.Locks) != 1 || s.Locks[0].Waiters < 2 {
					return false
				}
				for _, part := range s.Locks[0].Participants {
					if part.Role == "waiter" && part.Watches == nil {
						return false
					}
				}
				return true
			})
			l := s.Locks[0]
			if l.Recipe != tc.recipe || l.Holders != 2 {
				t.Fatalf("recipe %s holders %d: %+v", l.Recipe, l.Holders, l.Participants)
			}
			if tc.maxLeases == nil && l.MaxLeases != nil || tc.maxLeases != nil && (l.MaxLeases == nil || *l.MaxLeases != 2) {
				t.Fatalf("max_leases = %v", l.MaxLeases)
			}
			for _, part := range l.Participants {
				if part.Mode != "lease" {
					t.Fatalf("mode %s", part.Mode)
				}
				if part.Role == "holder" && !p.Held(idOfSession(t, cs, part.Session)) {
					t.Fatalf("show says %s holds a lease; its client does not", part.Node)
				}
			}
			if len(l.Anomalies) != 0 {
				t.Fatalf("anomalies: %v", kinds(s))
			}
		})
	}
}

// idOfSession finds which contender owns session.
func idOfSession(t *testing.T, cs []peers.Contender, session *string) string {
	t.Helper()
	for _, c := range cs {
		if session != nil && fmt.Sprintf("0x%x", c.Session) == *session {
			return c.ID
		}
	}
	t.Fatalf("no contender owns session %v", session)
	return ""
}

func TestIntegrationShowCuratorDowngrade(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	p := peers.Start(t, peers.Curator, server)
	p.Acquire(t, "c0", "write+read", root+"/locks/downgrade")
	p.WaitHeld(t, "c0", 30*time.Second)
	other := p.Acquire(t, "c1", "read", root+"/locks/downgrade")
	s := waitFor(t, server, root+"/locks/downgrade", func(s showJSON) bool { return len(s.Locks[0].Participants) == 3 })
	l := s.Locks[0]
	if l.Holders != 2 || l.Participants[1].Mode != "read" || l.Participants[1].Role != "holder" ||
		l.Participants[2].Path != other.Node || l.Participants[2].Role != "waiter" {
		t.Fatalf("write holder's own read lock should hold, another reader wait: %+v", l.Participants)
	}
	if slices.Contains(kinds(s), "duplicate-session") {
		t.Fatalf("a downgrade is not a duplicate: %v", kinds(s))
	}
}
