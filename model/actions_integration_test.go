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
