package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/lockcore"
)

// TestIntegrationMultiLockDeadlock drives two real Curator
// InterProcessMultiLocks over the same two locks in opposite orders into
// their deadlock: ls names each session holding one lock while it waits in
// the other, and the loop between them.
func TestIntegrationMultiLockDeadlock(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	p := peers.Start(t, peers.Curator, server)
	a, b := root+"/multi/a", root+"/multi/b"
	p.Acquire(t, "za", "mutex", a)
	p.WaitHeld(t, "za", 30*time.Second)
	p.Acquire(t, "zb", "mutex", b)
	p.WaitHeld(t, "zb", 30*time.Second)
	x := p.Acquire(t, "x", "multilock", a+","+b) // queues on a
	y := p.Acquire(t, "y", "multilock", b+","+a) // queues on b
	waitApp(t, server, b, func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 2 })
	p.Release(t, "za") // x takes a, then queues on b behind y
	waitApp(t, server, b, func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 3 })
	p.Release(t, "zb") // y takes b, then queues on a behind x's hold
	waitApp(t, server, a, func(s appShowJSON) bool { return len(s.Locks[0].Participants) == 2 })
	if p.Held("x") || p.Held("y") {
		t.Fatal("a MultiLock got both locks: no deadlock to show")
	}

	out, errOut, code := run(t, "ls", "--json", "--server", server, "--root", root+"/multi")
	if code != exitOK {
		t.Fatalf("ls exited %d: %s", code, errOut)
	}
	var ls struct {
		Cross []struct {
			Session string   `json:"session"`
			Holds   []string `json:"holds"`
			WaitsIn []string `json:"waits_in"`
		} `json:"cross_locks"`
		Cycles []struct {
			Sessions []string `json:"sessions"`
			Locks    []string `json:"locks"`
			Detail   string   `json:"detail"`
		} `json:"cross_lock_cycles"`
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatal(err)
	}
	hex := lockcore.SessionHex
	if len(ls.Cross) != 2 || len(ls.Cycles) != 1 {
		t.Fatalf("cross %+v cycles %+v\n%s", ls.Cross, ls.Cycles, out)
	}
	byS := map[string][]string{}
	for _, c := range ls.Cross {
		byS[c.Session] = append(c.Holds, c.WaitsIn...)
	}
	if !slices.Equal(byS[hex(x.Session)], []string{a, b}) || !slices.Equal(byS[hex(y.Session)], []string{b, a}) {
		t.Fatalf("cross %+v; x %s, y %s", ls.Cross, hex(x.Session), hex(y.Session))
	}
	if c := ls.Cycles[0]; !strings.Contains(c.Detail, "different orders") || len(c.Sessions) != 2 {
		t.Fatalf("cycle %+v", c)
	}
	text, _, _ := run(t, "ls", "--server", server, "--root", root+"/multi")
	if !strings.Contains(text, "! lock-order cycle") {
		t.Fatalf("ls text:\n%s", text)
	}
}
