package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

var t0 = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// lockOf analyses a go-zookeeper-style lock with the given sequence numbers
// (session = 100 + seq).
func lockOf(path string, seqs ...int) *lockcore.Lock {
	t := lockcore.Tree{Path: path, ReadAt: t0}
	for _, s := range seqs {
		t.Children = append(t.Children, lockcore.Node{
			Name: fmt.Sprintf("_c_%032x-lock-%010d", s, s),
			Stat: zk.Stat{Czxid: int64(s + 1), EphemeralOwner: int64(100 + s), Ctime: t0.Add(-time.Minute).UnixMilli()}})
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{})
	return &l
}

func lockEvent(l *lockcore.Lock) zkwatch.Event {
	return zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l}
}

// pendingLockOf is lockOf with the contenders at the given sequence
// numbers listed but not read yet: names and owners only, as a listing
// and the servers' dump tell them.
func pendingLockOf(path string, pending map[int]bool, seqs ...int) *lockcore.Lock {
	t := lockcore.Tree{Path: path, ReadAt: t0}
	for _, s := range seqs {
		n := lockcore.Node{Name: fmt.Sprintf("_c_%032x-lock-%010d", s, s),
			Stat: zk.Stat{Czxid: int64(s + 1), EphemeralOwner: int64(100 + s), Ctime: t0.Add(-time.Minute).UnixMilli()}}
		if pending[s] {
			n = lockcore.Node{Name: n.Name, Stat: zk.Stat{EphemeralOwner: n.Stat.EphemeralOwner}, Pending: true}
		}
		t.Children = append(t.Children, n)
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{})
	return &l
}

func all(seqs ...int) map[int]bool {
	m := map[int]bool{}
	for _, s := range seqs {
		m[s] = true
	}
	return m
}

func synced() *model.State {
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	return s
}

// queuedLong is a lock whose holder queued an hour: seen getting the lock
// at t0 when seen is true, else with its grant unknown.
func queuedLong(seen bool) *lockcore.Lock {
	holder := lockcore.Node{Name: "_c_00000000000000000000000000000001-lock-0000000001",
		Stat: zk.Stat{Czxid: 2, EphemeralOwner: 101, Ctime: t0.Add(-time.Hour).UnixMilli()}}
	t := lockcore.Tree{Path: "/l", ReadAt: t0, Children: []lockcore.Node{holder}}
	t.Self.Stat.Pzxid = 3 // its predecessor's delete
	if seen {
		t.Seen = &lockcore.Sightings{At: t0.Add(-time.Second), Nodes: []lockcore.Sighting{{Path: "/l/" + holder.Name, Token: 2}}}
		t.Watched = true
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{LongHeld: 10 * time.Minute})
	return &l
}

func TestListOrderAndJSON(t *testing.T) {
	s := model.NewState()
	s.Apply(lockEvent(lockOf("/a", 0)))
	s.Apply(lockEvent(lockOf("/b", 0, 1, 2)))
	s.Apply(lockEvent(lockOf("/c", 0, 1)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventDenied, Path: "/secret", Err: zk.ErrNoAuth})
	var buf bytes.Buffer
	if err := WriteListJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	// A whole walk with a path denied is not the whole picture.
	var whole struct {
		Complete   bool   `json:"complete"`
		Incomplete string `json:"incomplete"`
	}
	if err := json.Unmarshal(buf.Bytes(), &whole); err != nil || whole.Complete || !strings.Contains(whole.Incomplete, "1 paths denied to this session") {
		t.Errorf("ls --json with a path denied: complete %v, incomplete %q (%v)", whole.Complete, whole.Incomplete, err)
	}
	var out struct {
		Locks []struct {
			Path         string   `json:"path"`
			Recipe       string   `json:"recipe"`
			Holders      int      `json:"holders"`
			Waiters      int      `json:"waiters"`
			OldestHoldMs int64    `json:"oldest_hold_ms"`
			Anomalies    []string `json:"anomalies"`
		} `json:"locks"`
		Denied []string `json:"denied"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Locks) != 3 || out.Locks[0].Path != "/b" || out.Locks[1].Path != "/c" || out.Locks[2].Path != "/a" ||
		out.Locks[0].Waiters != 2 || out.Locks[0].Recipe != "gozk-lock" || out.Locks[0].OldestHoldMs != 60000 ||
		out.Locks[0].Anomalies == nil || len(out.Denied) != 1 {
		t.Fatalf("ls --json: %s", buf.String())
	}
	buf.Reset()
	if err := WriteListText(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("/secret  (access denied)")) {
		t.Fatalf("ls text:\n%s", buf.String())
	}
}

// answer is an EventServers asked at t0+at and in a moment later, listing
// clients.
func answer(at time.Duration, complete bool, clients ...zkwatch.ClientInfo) zkwatch.Event {
	m := map[int64]zkwatch.ClientInfo{}
	for _, c := range clients {
		if c.Asked.IsZero() {
			c.Asked = t0.Add(at)
		}
		m[c.Session] = c
	}
	return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(at + 100*time.Millisecond), ClientsAsked: t0.Add(at), Clients: m, ClientsComplete: complete}
}

// client is session's client at addr with a 9-second timeout.
func client(session int64, addr string) zkwatch.ClientInfo {
	return zkwatch.ClientInfo{Session: session, Server: "127.0.0.1:2181", Client: addr, Timeout: 9 * time.Second}
}

// frozenHolder is a state whose lock /l has holder 100 and waiter 101,
// both listed at 1 s, then the holder silent for 5 s in the answer at
// 6 s; it returns the two as listed, and the holder as silent.
func frozenHolder() (s *model.State, h, w, frozen zkwatch.ClientInfo) {
	h, w = client(100, "10.0.0.1:4000"), client(101, "10.0.0.2:4000")
	s = model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(lockEvent(lockOf("/l", 0, 1)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	s.Apply(answer(time.Second, true, h, w))
	frozen = h
	frozen.Silent = 5 * time.Second
	s.Apply(answer(6*time.Second, true, frozen, w))
	return s, h, w, frozen
}
