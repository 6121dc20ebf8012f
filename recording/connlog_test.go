package recording_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestReplayLogsOwnConnection: a recording keeps what zklocks' own
// connection and the members went through, and its replay's event log
// says it as the live one did: connection lost, taken back, re-read, a
// member down, the leader changed.
func TestReplayLogsOwnConnection(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	tick := func() time.Time { at = at.Add(time.Second); return at }
	members := func(modes ...string) []zkwatch.ServerInfo {
		var svs []zkwatch.ServerInfo
		for i, m := range modes {
			sv := zkwatch.ServerInfo{Addr: "zk" + string(rune('1'+i)) + ":2181", Status: words.ServerStatus{Mode: m}}
			if m == "" {
				sv.Err = errors.New("srvr: connection refused")
			}
			svs = append(svs, sv)
		}
		return svs
	}
	events := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: tick(), Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "zk1:2181", Session: 7}},
		{Kind: zkwatch.EventServers, At: tick(), Servers: members("leader", "follower", "follower")},
		{Kind: zkwatch.EventSynced, At: tick()},
		{Kind: zkwatch.EventConn, At: tick(), Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: 7}},
		{Kind: zkwatch.EventConn, At: tick(), Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "zk2:2181", Session: 7}},
		{Kind: zkwatch.EventServers, At: tick(), Servers: members("", "leader", "follower")},
		{Kind: zkwatch.EventSynced, At: tick()},
	}
	live := model.NewState()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := recording.Create(path, recording.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		live.Apply(ev)
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tape := model.NewTape(rec.Events)
	replayed := tape.StateAt(tape.Len())
	text := func(s *model.State) string {
		var b strings.Builder
		for _, h := range s.History {
			b.WriteString(string(h.Change) + ": " + h.Note + "\n")
		}
		return b.String()
	}
	want := text(live)
	for _, line := range []string{"conn-lost: our connection to zk1:2181 lost", "reconnected: back on zk2:2181",
		"member-down: member zk1:2181 stopped answering", "leader: leader now zk2:2181 (was zk1:2181)", "re-read: "} {
		if !strings.Contains(want, line) {
			t.Fatalf("the live log lacks %q:\n%s", line, want)
		}
	}
	if got := text(replayed); got != want {
		t.Fatalf("the replay's log:\n%s\nthe live one:\n%s", got, want)
	}
}
