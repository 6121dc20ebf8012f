package model_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// untouchable is a ZooKeeper that fails the test on any call: under
// read-only nothing may reach the server.
type untouchable struct{ t *testing.T }

func (u untouchable) fail() { u.t.Helper(); u.t.Fatal("read-only action reached ZooKeeper") }
func (u untouchable) Create(string, []byte, int32, []zk.ACL) (string, error) {
	u.fail()
	return "", nil
}
func (u untouchable) Children(string) ([]string, *zk.Stat, error) { u.fail(); return nil, nil, nil }
func (u untouchable) ChildrenW(string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	u.fail()
	return nil, nil, nil, nil
}
func (u untouchable) Get(string) ([]byte, *zk.Stat, error) { u.fail(); return nil, nil, nil }
func (u untouchable) ExistsW(string) (bool, *zk.Stat, <-chan zk.Event, error) {
	u.fail()
	return false, nil, nil, nil
}
func (u untouchable) Set(string, []byte, int32) (*zk.Stat, error) { u.fail(); return nil, nil }
func (u untouchable) Delete(string, int32) error                  { u.fail(); return nil }
func (u untouchable) Multi(...interface{}) ([]zk.MultiResponse, error) {
	u.fail()
	return nil, nil
}
func (u untouchable) SessionID() int64 { return 1 }
func (u untouchable) State() zk.State  { return zk.StateHasSession }

func TestReadOnlyRefusesEveryWrite(t *testing.T) {
	var log bytes.Buffer
	a := &model.Actions{ZK: untouchable{t}, Audit: model.NewAudit(&log), ReadOnly: true}
	e := lockclient.Expect{Path: "/l/n", Czxid: 1, EphemeralOwner: 2}
	for name, act := range map[string]func() error{
		"force-release": func() error { return a.ForceRelease(t.Context(), e) },
		"revoke":        func() error { return a.Revoke(t.Context(), e) },
		"fence":         func() error { return a.Fence(t.Context(), []lockclient.Expect{e}) },
		"acquire": func() error {
			_, err := a.Acquire(context.Background(), lockclient.Spec{Path: "/l", Mode: lockcore.ModeExclusive})
			return err
		},
	} {
		if err := act(); !errors.Is(err, model.ErrReadOnly) {
			t.Fatalf("%s under read-only: %v", name, err)
		}
	}
	if log.Len() != 0 {
		t.Fatalf("nothing happened, so nothing is audited: %s", log.String())
	}
}

// TestRevokeRefusesNodesWithoutRevocation: a revocation request on a node
// whose client would ignore it is refused before anything reaches
// ZooKeeper, and the refusal is audited.
func TestRevokeRefusesNodesWithoutRevocation(t *testing.T) {
	var log bytes.Buffer
	a := &model.Actions{ZK: untouchable{t}, Audit: model.NewAudit(&log)}
	for _, e := range []lockclient.Expect{
		{Path: "/l/f3c2a1b0e9d8c7b6a5f4e3d2c1b0a9f8__lock__0000000001", Czxid: 1, EphemeralOwner: 2}, // kazoo
		{Path: "/l/lock-72057594037927937-0000000001", Czxid: 1, EphemeralOwner: 2},                  // session-lock
		{Path: "/l/_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-lock-0000000001", Czxid: 1},               // persistent
	} {
		if err := a.Revoke(t.Context(), e); !errors.Is(err, lockcore.ErrNotRevocable) {
			t.Errorf("revoke %s: %v, want ErrNotRevocable", e.Path, err)
		}
	}
	if n := strings.Count(log.String(), `"action":"revoke"`); n != 3 {
		t.Errorf("want 3 audited refusals, got %d:\n%s", n, log.String())
	}
}

// An attempt refused for want of confirmation is audited, as every attempt
// is, without reaching ZooKeeper or telling the state anything happened.
func TestUnconfirmedIsAudited(t *testing.T) {
	var log bytes.Buffer
	told := 0
	a := &model.Actions{ZK: untouchable{t}, Audit: model.NewAudit(&log), Via: model.ViaCLI, Told: func(lockcore.Action) { told++ }}
	e := lockclient.Expect{Path: "/l/n", Czxid: 7, EphemeralOwner: 2}
	if err := a.Refused(lockcore.ActionForceRelease, e, errors.New("not confirmed: nothing was changed")); err != nil {
		t.Fatal(err)
	}
	got, err := model.ParseAuditLine(bytes.TrimSpace(log.Bytes()))
	if err != nil {
		t.Fatalf("audit line %q: %v", log.String(), err)
	}
	if got.Kind != lockcore.ActionForceRelease || got.Node != "/l/n" || got.Token != 7 || got.Done() || !strings.Contains(got.Failed, "not confirmed") {
		t.Fatalf("audited %+v", got)
	}
	if told != 0 {
		t.Fatal("an unconfirmed attempt was told to the state as an action")
	}
}

// TestAccessRefusesBeforeTrying: an action the ACL check refuses never
// reaches ZooKeeper, and the refused attempt is audited, as every attempt
// is.
func TestAccessRefusesBeforeTrying(t *testing.T) {
	var log bytes.Buffer
	denied := errors.New("cannot delete /l/n: the ACL of /l grants DELETE to sasl:app only; this session is sasl:reader")
	var asked []string
	a := &model.Actions{ZK: untouchable{t}, Audit: model.NewAudit(&log),
		Access: func(_ context.Context, kind lockcore.ActionKind, node string) (string, error) {
			asked = append(asked, string(kind)+" "+node)
			return "", denied
		}}
	e := lockclient.Expect{Path: "/l/n", Czxid: 1, EphemeralOwner: 2}
	for name, act := range map[string]func() error{
		"force-release": func() error { return a.ForceRelease(t.Context(), e) },
		"revoke":        func() error { return a.Revoke(t.Context(), e) },
		"fence":         func() error { return a.Fence(t.Context(), []lockclient.Expect{e}) },
	} {
		if err := act(); !errors.Is(err, denied) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if len(asked) != 3 {
		t.Fatalf("asked %v", asked)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 audited refusals, got %d:\n%s", len(lines), log.String())
	}
	for _, l := range lines {
		got, err := model.ParseAuditLine([]byte(l))
		if err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		if got.Node != "/l/n" || got.Done() || !strings.Contains(got.Failed, "grants DELETE to sasl:app only") {
			t.Errorf("audited %+v, want the refused attempt with the ACL's words", got)
		}
	}
}
