package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestConnectionLogged feeds our connection's and the members' changes
// and reads the event log: nothing before the first sync but an expiry,
// then each change once, in words.
func TestConnectionLogged(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	tick := func() time.Time { at = at.Add(time.Second); return at }
	s := NewState()
	conn := func(phase zkwatch.ConnPhase, server string, session int64) {
		s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: tick(), Conn: zkwatch.ConnState{Phase: phase, Server: server, Session: session}})
	}
	servers := func(modes ...string) {
		var svs []zkwatch.ServerInfo
		for i, m := range modes {
			sv := zkwatch.ServerInfo{Addr: "zk" + string(rune('1'+i)) + ":2181", Status: words.ServerStatus{Mode: m}}
			if m == "" {
				sv.Err = errors.New("zkwatch: srvr: connection refused")
			}
			svs = append(svs, sv)
		}
		s.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: tick(), Servers: svs})
	}
	synced := func() { s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: tick()}) }

	conn(zkwatch.Connected, "zk1:2181", 1)
	servers("leader", "follower", "follower")
	synced()
	if len(s.History) != 0 {
		t.Fatalf("logged before the first sync: %+v", s.History)
	}
	conn(zkwatch.Disconnected, "", 1)
	conn(zkwatch.Connected, "zk2:2181", 1)
	servers("", "follower", "follower")
	servers("", "", "") // nobody answers: who leads is not known
	servers("", "leader", "follower")
	synced()
	conn(zkwatch.Expired, "", 1)
	conn(zkwatch.Connected, "zk3:2181", 2)
	synced()

	want := []struct {
		change Change
		note   string
	}{
		{ConnLost, "our connection to zk1:2181 lost"},
		{Reconnected, "back on zk2:2181, same session"},
		{MemberDown, "member zk1:2181 stopped answering: srvr: connection refused"},
		{LeaderChanged, "no member answers as leader (was zk1:2181)"},
		{MemberDown, "member zk2:2181 stopped answering"},
		{MemberDown, "member zk3:2181 stopped answering"},
		{MemberUp, "member zk2:2181 answers again, as leader"},
		{MemberUp, "member zk3:2181 answers again, as follower"},
		{LeaderChanged, "leader now zk2:2181 (was zk1:2181)"},
		{Reread, "0 locks re-read"},
		{Expired, "our session expired"},
		{NewSession, "new session 0x2 on zk3:2181"},
		{Reread, "locks re-read"},
	}
	if len(s.History) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(s.History), len(want), s.History)
	}
	for i, w := range want {
		h := s.History[i]
		if h.Change != w.change || !strings.Contains(h.Note, w.note) || h.Lock != "" || !h.Change.Ours() {
			t.Errorf("entry %d: %s %q, want %s %q", i, h.Change, h.Note, w.change, w.note)
		}
	}
}
