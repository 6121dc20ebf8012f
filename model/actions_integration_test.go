package model_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// shared is the package's ZooKeeper; each test works under a root of its
// own.
var shared zktest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Stop()
	os.Exit(code)
}

func TestIntegrationActionsAudit(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	var log bytes.Buffer
	now := time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)
	a := &model.Actions{ZK: c, Audit: model.NewAudit(&log), Server: zks.Addr(), User: "sre", Now: func() time.Time { return now }}
	held, err := a.Acquire(context.Background(), lockclient.Spec{Path: root + "/audit", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	e := lockclient.Expect{Path: held.Node, Czxid: held.Token, EphemeralOwner: held.Session}
	if err := a.ForceRelease(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	if err := a.ForceRelease(t.Context(), e); !errors.Is(err, lockclient.ErrNodeGone) {
		t.Fatalf("second force-release: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one audit line per action, got:\n%s", log.String())
	}
	first, err := model.ParseAuditLine([]byte(lines[0]))
	if err != nil {
		t.Fatal(err)
	}
	second, err := model.ParseAuditLine([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	if first.Kind != lockcore.ActionForceRelease || first.Node != held.Node || first.Token != held.Token || first.User != "sre" ||
		!first.Done() || first.Owner != held.Session || first.Session != c.SessionID() ||
		!first.At.Equal(now) || first.Server != zks.Addr() ||
		!strings.Contains(lines[0], `"owner_session":"`+lockcore.SessionHex(held.Session)+`"`) || !strings.Contains(lines[0], `"result":"ok"`) {
		t.Fatalf("audit line: %s", lines[0])
	}
	if second.Done() || !strings.Contains(lines[1], `"result":"failed: `) {
		t.Fatalf("a refused action is audited with its failure: %s", lines[1])
	}
}

// The operator's own lock, given back, is told as released by its own
// session (lockcore.ActionRelease) and audited nowhere; one that another
// client force-released first is not told.
func TestIntegrationActionsTellOwnRelease(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	var log bytes.Buffer
	var told []lockcore.Action
	a := &model.Actions{ZK: c, Audit: model.NewAudit(&log), Server: zks.Addr(), User: "sre", Told: func(act lockcore.Action) { told = append(told, act) }}
	held, err := a.Acquire(t.Context(), lockclient.Spec{Path: root + "/own", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	if err := held.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0].Kind != lockcore.ActionRelease || told[0].Node != held.Node || told[0].Token != held.Token ||
		told[0].Owner != held.Session || !told[0].Done() || log.Len() != 0 {
		t.Fatalf("told %+v, audited %q", told, log.String())
	}
	forced, err := a.Acquire(t.Context(), lockclient.Spec{Path: root + "/own", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	if err := lockclient.ForceDelete(t.Context(), zks.Connect(t), lockclient.Expect{Path: forced.Node, Czxid: forced.Token, EphemeralOwner: forced.Session}); err != nil {
		t.Fatal(err)
	}
	forced.Release(t.Context())
	if len(told) != 1 {
		t.Fatalf("a lock another client force-released is told as released by its own session: %+v", told[1:])
	}
}
