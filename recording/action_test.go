package recording

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestReadsFormat6Action: up to format 6 an act line carried the action's
// audit line as a string ("n"); it reads as the action it says, and a
// line that says nothing reads as no action rather than a wrong one.
func TestReadsFormat6Action(t *testing.T) {
	v6 := `{"zklocks_recording":6,"started":"2026-11-22T03:00:00Z","part":1,"server":"zk1:2181"}` + "\n" +
		`{"t":1000,"k":"act","p":"/locks/billing/_c_1-lock-0000000017","n":"{\"time\":\"2026-11-22T03:00:00.001Z\",\"user\":\"sre\",\"host\":\"jump-1\",\"via\":\"ui\",\"server\":\"zk1:2181\",\"session\":\"0x100008e2d9b0001\",\"action\":\"force-release\",\"node\":\"/locks/billing/_c_1-lock-0000000017\",\"czxid\":4242,\"owner_session\":\"0x100008e2d9b0014\",\"result\":\"ok\"}"}` + "\n" +
		`{"t":1000,"k":"act","l":1,"n":"{\"time\":\"2026-11-22T03:00:00.002Z\",\"user\":\"sre\",\"action\":\"fence\",\"node\":\"/locks/billing/_c_1-lock-0000000017\",\"czxid\":4242,\"owner_session\":\"\",\"result\":\"failed: lockcore: node is gone\"}"}` + "\n" +
		`{"t":1000,"k":"act","l":1,"n":"not an audit line"}` + "\n"
	var got []zkwatch.Event
	h, err := Read(bytes.NewReader(gz(v6)), func(ev zkwatch.Event, _ bool) { got = append(got, ev) })
	if err != nil || h.Format != 6 || len(got) != 3 {
		t.Fatalf("header %+v, %d events, err %v", h, len(got), err)
	}
	want := &lockcore.Action{At: time.Date(2026, 11, 22, 3, 0, 0, 1e6, time.UTC), Kind: lockcore.ActionForceRelease,
		Node: "/locks/billing/_c_1-lock-0000000017", Token: 4242, Owner: 0x100008e2d9b0014,
		User: "sre", Host: "jump-1", Via: "ui", Server: "zk1:2181", Session: 0x100008e2d9b0001}
	if ev := got[0]; ev.Kind != zkwatch.EventAction || !reflect.DeepEqual(ev.Action, want) {
		t.Errorf("force-release read as %+v, want %+v", ev.Action, want)
	}
	if a := got[1].Action; a == nil || a.Kind != lockcore.ActionFence || a.Done() || a.Failed != "lockcore: node is gone" || a.Owner != 0 {
		t.Errorf("failed fence read as %+v", a)
	}
	if got[2].Kind != zkwatch.EventAction || got[2].Action != nil {
		t.Errorf("a line that says nothing read as %+v", got[2].Action)
	}
}

// TestActionLine: format 7 stores an action as an object of its own, not
// a string of JSON.
func TestActionLine(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	a := &lockcore.Action{At: at, Kind: lockcore.ActionRevoke, Node: "/l/n", Token: 9, Owner: 0x64, User: "sre"}
	e := newEncoder(at)
	b, err := e.encode(zkwatch.Event{Kind: zkwatch.EventAction, At: at, Path: "/l/n", Action: a}, false)
	if err != nil {
		t.Fatal(err)
	}
	line := string(b)
	if !strings.Contains(line, `"a":{`) || strings.Contains(line, `"n":`) || !strings.Contains(line, `"owner_session":"0x64"`) {
		t.Fatalf("act line %s", line)
	}
	ev, _, err := newDecoder(at, Version).decode(b)
	if err != nil || !reflect.DeepEqual(ev.Action, a) {
		t.Fatalf("read back %+v (%v), want %+v", ev.Action, err, a)
	}
}
