package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// fakeBoard is a two-person board of the test's: it files requests and
// records decisions, running nothing.
type fakeBoard struct {
	me       lockcore.Operator
	pending  []model.Request
	runs     map[int]func(context.Context, lockcore.Operator) error
	notices  chan model.ApprovalNotice
	decided  []string
	approver lockcore.Operator
}

func (b *fakeBoard) Submit(r model.Request, run func(context.Context, lockcore.Operator) error) (model.Request, error) {
	r.ID, r.Expires = len(b.pending)+1, r.At.Add(10*time.Minute)
	b.pending = append(b.pending, r)
	b.runs[r.ID] = run
	return r, nil
}
func (b *fakeBoard) Pending() []model.Request             { return b.pending }
func (b *fakeBoard) Notices() <-chan model.ApprovalNotice { return b.notices }
func (b *fakeBoard) Mine(r model.Request) bool            { return model.SamePerson(r.By, b.me) }
func (b *fakeBoard) Decide(ctx context.Context, id int, approve bool) (model.ApprovalNotice, error) {
	r := b.pending[id-1]
	n := model.ApprovalNotice{Request: r, Decision: model.DecisionRejected, By: &b.approver}
	if approve {
		n.Decision, n.Err = model.DecisionApproved, b.runs[id](ctx, b.approver)
	}
	b.decided = append(b.decided, string(n.Decision))
	return n, nil
}

// Under the two-person rule, y in the force-release dialog files a
// request and deletes nothing; a notice replaces the status line; and
// :approve shows another operator's request, whose y runs it.
func TestForceReleaseUnderTwoPersonRule(t *testing.T) {
	board := &fakeBoard{me: lockcore.Operator{User: "sre", Key: "SHA256:me"}, runs: map[int]func(context.Context, lockcore.Operator) error{},
		notices: make(chan model.ApprovalNotice, 4), approver: lockcore.Operator{User: "bob", Key: "SHA256:bobkey123456"}}
	a, z, audit := newOperateApp(t, func(o *Options) {
		o.Actions.Key, o.Actions.Gate, o.Approvals = "SHA256:me", board, board
	})
	holder := participant(t, a, "/locks/billing", 0)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D", "y")
	if w := z.writes(); len(w) != 0 || audit.Len() != 0 {
		t.Fatalf("a request acted: %v, audit %q", w, audit.String())
	}
	if l := statusLine(a); !strings.Contains(l, "requested: it awaits a second operator's approval: request #1") {
		t.Fatalf("status line %q", l)
	}
	press(a, ":", "a", "p", "p", "r", "o", "v", "e", "enter")
	if l := statusLine(a); !strings.Contains(l, "only your own requests are pending") || openDialog(a) != nil {
		t.Fatalf(":approve of one's own: %q", l)
	}
	// Another operator's request: a notice, then :approve and y.
	other := model.Request{ID: 2, Kind: lockcore.ActionForceRelease, Expects: []lockclient.Expect{lockclient.ExpectParticipant(holder)},
		By: lockcore.Operator{User: "alice", Key: "SHA256:zfxAAAAAAAAA", Host: "10.2.0.14"}, At: t0, Expires: t0.Add(10 * time.Minute)}
	board.pending = append(board.pending, other)
	board.runs[2] = func(context.Context, lockcore.Operator) error { return nil }
	// Its command waits for the next notice: not run here.
	a.Update(approvalNoticeMsg{notice: model.ApprovalNotice{Request: other, Decision: model.DecisionRequested}})
	if l := statusLine(a); !strings.HasPrefix(l, "alice (SHA256:zfx…) asks to force-release "+holder.Path) {
		t.Fatalf("the notice: %q", l)
	}
	press(a, ":", "a", "p", "p", "r", "o", "v", "e", "enter")
	if sc := screen(a); !strings.Contains(sc, "Approve alice (SHA256:zfx…)'s force-release?") || !strings.Contains(sc, "n rejects it") {
		t.Fatalf("the approval dialog:\n%s", sc)
	}
	press(a, "y")
	if len(board.decided) != 1 || board.decided[0] != "approved" {
		t.Fatalf("decided %v", board.decided)
	}
	if l := statusLine(a); !strings.Contains(l, "bob (SHA256:bob…) approved alice (SHA256:zfx…)'s force-release of") {
		t.Fatalf("after approving: %q", l)
	}
}
