package model

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// recordingGate files requests and runs none until told.
type recordingGate struct {
	filed []Request
	runs  []func(context.Context, lockcore.Operator) error
}

func (g *recordingGate) Submit(r Request, run func(context.Context, lockcore.Operator) error) (Request, error) {
	r.ID, r.Expires = len(g.filed)+1, r.At.Add(time.Minute)
	g.filed, g.runs = append(g.filed, r), append(g.runs, run)
	return r, nil
}

// With a gate, a destructive action is a request: nothing is written or
// audited until it runs; with a refusing gate (the command line, the local
// UI on an approve: 2 context) it is refused, saying why; read-only and
// unread nodes are refused before either.
func TestActionsUnderTheTwoPersonRule(t *testing.T) {
	e := lockclient.Expect{Path: "/locks/a/_c_x-lock-0000000001", Czxid: 16, EphemeralOwner: 7}
	var audit bytes.Buffer
	g := &recordingGate{}
	// ZK is nil: any write would panic.
	a := &Actions{Audit: NewAudit(&audit), User: "alice", Key: "SHA256:a", Gate: g,
		Recording: func() *lockcore.RecordingMark {
			return &lockcore.RecordingMark{File: "s.cast", Offset: 3 * time.Second}
		}}
	for name, act := range map[string]func() error{
		"force-release": func() error { return a.ForceRelease(context.Background(), e) },
		"fence":         func() error { return a.Fence(context.Background(), []lockclient.Expect{e, e}) },
	} {
		if err := act(); !errors.Is(err, ErrAwaitingApproval) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if len(g.filed) != 2 || audit.Len() != 0 || g.filed[0].By.User != "alice" || g.filed[0].By.Key != "SHA256:a" {
		t.Fatalf("filed %+v, audit %q", g.filed, audit.String())
	}
	if err := a.ForceRelease(context.Background(), lockclient.Expect{Path: "/x"}); !errors.Is(err, ErrNotRead) {
		t.Fatalf("an unread node: %v", err)
	}
	a.ReadOnly = true
	if err := a.ForceRelease(context.Background(), e); !errors.Is(err, ErrReadOnly) || len(g.filed) != 2 {
		t.Fatalf("read-only: %v", err)
	}
	a.ReadOnly, a.Gate = false, RefusingGate("context prod requires a second person's approval")
	if err := a.ForceRelease(context.Background(), e); !errors.Is(err, ErrApprovalRequired) || !strings.Contains(err.Error(), "context prod") {
		t.Fatalf("refusing gate: %v", err)
	}
	if audit.Len() != 0 {
		t.Fatalf("refused actions audited: %q", audit.String())
	}
}
