package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
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
	e := lockcore.Expect{Path: "/l/n", Czxid: 1, EphemeralOwner: 2}
	for name, act := range map[string]func() error{
		"force-release": func() error { return a.ForceRelease(t.Context(), e) },
		"revoke":        func() error { return a.Revoke(t.Context(), e) },
		"fence":         func() error { return a.Fence(t.Context(), []lockcore.Expect{e}) },
		"acquire": func() error {
			_, err := a.Acquire(context.Background(), lockcore.Spec{Path: "/l", Mode: lockcore.ModeExclusive})
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

func TestIntegrationActionsAudit(t *testing.T) {
	zks := zktest.Start(t)
	c := zks.Connect(t)
	var log bytes.Buffer
	now := time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)
	a := &model.Actions{ZK: c, Audit: model.NewAudit(&log), Server: zks.Addr(), User: "sre", Now: func() time.Time { return now }}
	held, err := a.Acquire(context.Background(), lockcore.Spec{Path: "/audit", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	e := lockcore.Expect{Path: held.Node, Czxid: held.Token, EphemeralOwner: held.Session}
	if err := a.ForceRelease(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	if err := a.ForceRelease(t.Context(), e); !errors.Is(err, lockcore.ErrNodeGone) {
		t.Fatalf("second force-release: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one audit line per action, got:\n%s", log.String())
	}
	var first, second model.AuditEntry
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	if first.Action != "force-release" || first.Node != held.Node || first.Czxid != held.Token || first.User != "sre" ||
		first.Result != "ok" || first.Owner != lockcore.SessionHex(held.Session) || first.Session != lockcore.SessionHex(c.SessionID()) ||
		!first.Time.Equal(now) || first.Server != zks.Addr() {
		t.Fatalf("audit line: %s", lines[0])
	}
	if !strings.HasPrefix(second.Result, "failed: ") {
		t.Fatalf("a refused action is audited with its failure: %s", lines[1])
	}
}
