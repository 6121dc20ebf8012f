package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
)

// queue starts one contender per mode letter (R read, W write, X the
// peer's exclusive variant), in order, each waiting for its node.
func queue(t *testing.T, p *peers.Peer, path, pattern string, variants map[byte]string) []peers.Contender {
	var cs []peers.Contender
	for i := 0; i < len(pattern); i++ {
		cs = append(cs, p.Acquire(t, fmt.Sprintf("c%d", i), variants[pattern[i]], path))
	}
	return cs
}

func TestIntegrationShowAgreesWithClients(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	exclusive := []expect{{"exclusive", -1}, {"exclusive", 0}, {"exclusive", 1}}

	t.Run("curator mutex", func(t *testing.T) {
		p := peers.Start(t, peers.Curator, server)
		cs := queue(t, p, root+"/locks/curator-mutex", "XXX", map[byte]string{'X': "mutex"})
		p.WaitHeld(t, "c0", 30*time.Second)
		s := agree(t, server, root+"/locks/curator-mutex", p, cs, exclusive)
		if s.Locks[0].Recipe != "curator-mutex" {
			t.Fatalf("recipe %s", s.Locks[0].Recipe)
		}
		p.Release(t, "c0")
		p.WaitHeld(t, "c1", 30*time.Second)
		agree(t, server, root+"/locks/curator-mutex", p, cs[1:], []expect{{"exclusive", -1}, {"exclusive", 0}})
	})

	t.Run("curator read/write RRWRRWWR", func(t *testing.T) {
		p := peers.Start(t, peers.Curator, server)
		cs := queue(t, p, root+"/locks/curator-rw", "RRWRRWWR", map[byte]string{'R': "read", 'W': "write"})
		p.WaitHeld(t, "c0", 30*time.Second)
		p.WaitHeld(t, "c1", 30*time.Second)
		// Curator's readers watch the first write; writers their immediate predecessor.
		s := agree(t, server, root+"/locks/curator-rw", p, cs, []expect{
			{"read", -1}, {"read", -1}, {"write", 1}, {"read", 2}, {"read", 2}, {"write", 4}, {"write", 5}, {"read", 2}})
		if l := s.Locks[0]; l.Recipe != "curator-rwlock" || l.Holders != 2 || l.Waiters != 6 {
			t.Fatalf("lock summary: %s %d/%d", l.Recipe, l.Holders, l.Waiters)
		}
		if chain := s.Locks[0].Participants[5].Chain; len(chain) != 3 {
			t.Fatalf("W5's chain should run W5 → R4 → W2 → R1: %v", chain)
		}
	})

	t.Run("kazoo read/write RRWRRWWR", func(t *testing.T) {
		p := peers.Start(t, peers.Kazoo, server)
		cs := queue(t, p, root+"/locks/kazoo-rw", "RRWRRWWR", map[byte]string{'R': "read", 'W': "write"})
		p.WaitHeld(t, "c0", 30*time.Second)
		p.WaitHeld(t, "c1", 30*time.Second)
		// kazoo's readers watch the nearest earlier write.
		agree(t, server, root+"/locks/kazoo-rw", p, cs, []expect{
			{"read", -1}, {"read", -1}, {"write", 1}, {"read", 2}, {"read", 2}, {"write", 4}, {"write", 5}, {"read", 6}})
	})

	t.Run("kazoo lock", func(t *testing.T) {
		p := peers.Start(t, peers.Kazoo, server)
		cs := queue(t, p, root+"/locks/kazoo-lock", "XXX", map[byte]string{'X': "lock"})
		p.WaitHeld(t, "c0", 30*time.Second)
		agree(t, server, root+"/locks/kazoo-lock", p, cs, exclusive)
	})

	t.Run("go-zookeeper zk.Lock", func(t *testing.T) {
		p := peers.Start(t, peers.GoZk, server)
		cs := queue(t, p, root+"/locks/gozk", "XXX", map[byte]string{'X': "lock"})
		p.WaitHeld(t, "c0", 30*time.Second)
		s := agree(t, server, root+"/locks/gozk", p, cs, exclusive)
		if s.Locks[0].Recipe != "gozk-lock" {
			t.Fatalf("recipe %s", s.Locks[0].Recipe)
		}
	})

	t.Run("zookeeper recipe WriteLock", func(t *testing.T) {
		p := peers.Start(t, peers.ZkRecipe, server)
		cs := queue(t, p, root+"/locks/zk-writelock", "XXX", map[byte]string{'X': "writelock"})
		p.WaitHeld(t, "c0", 30*time.Second)
		s := agree(t, server, root+"/locks/zk-writelock", p, cs, exclusive)
		if s.Locks[0].Recipe != "zk-writelock" {
			t.Fatalf("recipe %s", s.Locks[0].Recipe)
		}
	})

	t.Run("curator and go-zookeeper share one queue", func(t *testing.T) {
		cur := peers.Start(t, peers.Curator, server)
		gz := peers.Start(t, peers.GoZk, server)
		a := cur.Acquire(t, "a", "mutex", root+"/locks/shared")
		b := gz.Acquire(t, "b", "lock", root+"/locks/shared")
		c := cur.Acquire(t, "c", "mutex", root+"/locks/shared")
		cur.WaitHeld(t, "a", 30*time.Second)
		s := waitFor(t, server, root+"/locks/shared", func(s showJSON) bool {
			return len(s.Locks[0].Participants) == 3 && s.Locks[0].Participants[2].Watches != nil
		})
		ps := s.Locks[0].Participants
		if ps[0].Path != a.Node || ps[0].Role != "holder" || ps[1].Path != b.Node || ps[2].Path != c.Node ||
			*ps[1].Watches != strings.TrimPrefix(a.Node, root+"/locks/shared/") || *ps[2].Watches != strings.TrimPrefix(b.Node, root+"/locks/shared/") {
			t.Fatalf("mixed curator/go-zookeeper queue wrong: %+v", ps)
		}
		if slices.Contains(kinds(s), "mixed-recipes") {
			t.Fatal("curator and go-zookeeper interoperate: not mixed")
		}
	})

	t.Run("plain ephemeral lock and its hidden waiters", func(t *testing.T) {
		owner, w1, w2 := zks.Connect(t), zks.Connect(t), zks.Connect(t)
		if _, err := owner.Create(root+"/locks/resource", []byte("worker-7"), zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []*zk.Conn{w1, w2} {
			if _, _, _, err := c.ExistsW(root + "/locks/resource"); err != nil {
				t.Fatal(err)
			}
		}
		s := show(t, server, root+"/locks/resource")
		l := s.Locks[0]
		want := []string{fmt.Sprintf("0x%x", w1.SessionID()), fmt.Sprintf("0x%x", w2.SessionID())}
		slices.Sort(want)
		if l.Recipe != "ephemeral" || l.Holders != 1 || !slices.Equal(l.HiddenJSON, want) || !slices.Contains(kinds(s), "herd") {
			t.Fatalf("ephemeral lock: recipe %s holders %d hidden %v anomalies %v", l.Recipe, l.Holders, l.HiddenJSON, kinds(s))
		}
		if p := l.Participants[0]; *p.Session != fmt.Sprintf("0x%x", owner.SessionID()) || *p.Data != "worker-7" {
			t.Fatalf("holder: %+v", p)
		}
	})
}
