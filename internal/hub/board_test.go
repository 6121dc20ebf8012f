package hub

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// A request runs only when another person approves it, once, as that
// person; its requester cannot approve it; a rejected or expired one
// never runs; and every subscriber hears of each step.
func TestBoard(t *testing.T) {
	alice := lockcore.Operator{User: "alice", Key: "SHA256:a"}
	aliceAgain := lockcore.Operator{User: "al", Key: "SHA256:other", Cert: &lockcore.Certificate{KeyID: "alice@corp"}}
	aliceCert := lockcore.Operator{User: "alice", Key: "SHA256:c", Cert: &lockcore.Certificate{KeyID: "alice@corp"}}
	bob := lockcore.Operator{User: "bob", Key: "SHA256:b"}
	b := newBoard(time.Hour)
	notices, stop := b.Subscribe()
	defer stop()
	next := func(want model.Decision) model.ApprovalNotice {
		t.Helper()
		select {
		case n := <-notices:
			if n.Decision != want {
				t.Fatalf("notice %s, want %s", n.Decision, want)
			}
			return n
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s notice", want)
		}
		return model.ApprovalNotice{}
	}
	var ran []lockcore.Operator
	run := func(_ context.Context, by lockcore.Operator) error { ran = append(ran, by); return nil }
	e := lockclient.Expect{Path: "/locks/orders/_c_x-lock-0000000007", Czxid: 16, Version: 0}
	r, err := b.Submit(model.Request{Kind: lockcore.ActionForceRelease, Expects: []lockclient.Expect{e}, By: alice, At: time.Now()}, run)
	if err != nil || r.ID != 1 || !r.Expires.After(r.At) {
		t.Fatalf("submitted %+v, %v", r, err)
	}
	if n := next(model.DecisionRequested); n.Request.ID != 1 {
		t.Fatalf("notice of %+v", n.Request)
	}
	if _, err := b.Decide(context.Background(), r.ID, alice, true); !errors.Is(err, model.ErrSamePerson) {
		t.Fatalf("alice approved her own: %v", err)
	}
	if len(ran) != 0 || len(b.Pending()) != 1 {
		t.Fatalf("ran %v, pending %v", ran, b.Pending())
	}
	n, err := b.Decide(context.Background(), r.ID, bob, true)
	if err != nil || n.Decision != model.DecisionApproved || len(ran) != 1 || ran[0] != bob {
		t.Fatalf("bob's approval: %+v %v, ran %v", n, err, ran)
	}
	next(model.DecisionApproved)
	if _, err := b.Decide(context.Background(), r.ID, bob, true); !errors.Is(err, model.ErrNoRequest) || len(ran) != 1 {
		t.Fatalf("approved twice: %v, ran %v", err, ran)
	}

	// Rejected: nothing runs.
	r, _ = b.Submit(model.Request{Kind: lockcore.ActionRevoke, Expects: []lockclient.Expect{e}, By: aliceCert, At: time.Now()}, run)
	next(model.DecisionRequested)
	if _, err := b.Decide(context.Background(), r.ID, aliceAgain, false); !errors.Is(err, model.ErrSamePerson) {
		t.Fatalf("another certificate of alice's decided her request: %v", err)
	}
	if n, err := b.Decide(context.Background(), r.ID, bob, false); err != nil || n.Decision != model.DecisionRejected {
		t.Fatalf("reject: %+v %v", n, err)
	}
	next(model.DecisionRejected)

	// Expired: nothing runs, and it cannot be approved after.
	short := newBoard(50 * time.Millisecond)
	sn, sstop := short.Subscribe()
	defer sstop()
	r, _ = short.Submit(model.Request{Kind: lockcore.ActionFence, Expects: []lockclient.Expect{e, e}, By: alice, At: time.Now()}, run)
	for want := range []model.Decision{model.DecisionRequested, model.DecisionExpired} {
		select {
		case n := <-sn:
			if n.Decision != []model.Decision{model.DecisionRequested, model.DecisionExpired}[want] {
				t.Fatalf("notice %s", n.Decision)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no expiry")
		}
	}
	if _, err := short.Decide(context.Background(), r.ID, bob, true); !errors.Is(err, model.ErrNoRequest) || len(ran) != 1 {
		t.Fatalf("an expired request approved: %v, ran %v", err, ran)
	}
}
