package model

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// The two-person rule: where a context requires it, an operator's
// force-release, revoke or fence is not made but requested (Gate), and
// runs only once another person approves it.
var (
	// ErrAwaitingApproval: the action was not made yet; it is a request
	// that another operator approves or rejects, or that expires.
	ErrAwaitingApproval = errors.New("awaits a second operator's approval")
	// ErrApprovalRequired refuses an action where a second person's
	// approval is required and there is nobody to give it (the command
	// line, the local UI): the wrapped text says where to act instead.
	ErrApprovalRequired = errors.New("a second person's approval is required")
	// ErrSamePerson refuses an approval by the person who requested it.
	ErrSamePerson = errors.New("the requester cannot approve their own request")
	// ErrNoRequest: the request is no longer pending (decided, expired or
	// withdrawn as its cluster's watcher stopped).
	ErrNoRequest = errors.New("no such pending request")
)

// Request is an action that waits for a second person: what it does, to
// which nodes as the requester saw them (the run is version-checked
// against them), who asked, and until when it may be approved.
type Request struct {
	ID      int
	Kind    lockcore.ActionKind
	Expects []lockclient.Expect
	By      lockcore.Operator
	At      time.Time
	Expires time.Time
}

// Nodes says what the request acts on: the node, or how many.
func (r Request) Nodes() string {
	if len(r.Expects) == 1 {
		e := r.Expects[0]
		return Printable(e.Path) + " · token " + TokenHex(e.Czxid)
	}
	return fmt.Sprintf("%d nodes", len(r.Expects))
}

// TokenHex is a fencing token (a czxid) as the UI shows it.
func TokenHex(czxid int64) string { return fmt.Sprintf("0x%x", czxid) }

// SamePerson reports whether two operators are one person: the same key,
// or certificates with the same key id from the same authority's users
// (a person's certificates differ in key and serial, not in key id).
func SamePerson(a, b lockcore.Operator) bool {
	if a.Key != "" && a.Key == b.Key {
		return true
	}
	return a.Cert != nil && b.Cert != nil && a.Cert.KeyID == b.Cert.KeyID
}

// OperatorLabel names an operator for the status line:
// alice (SHA256:zfx…), or with a certificate alice (cert "alice@corp").
func OperatorLabel(o lockcore.Operator) string {
	who := Printable(o.User)
	switch {
	case o.Cert != nil:
		return who + " (cert " + fmt.Sprintf("%q", Printable(o.Cert.KeyID)) + ")"
	case o.Key != "":
		k := o.Key
		if len(k) > 10 {
			k = k[:10] + "…"
		}
		return who + " (" + k + ")"
	}
	return who
}

// Decision is what became of a request.
type Decision string

// A request is made, then approved (and run), rejected or expired.
const (
	DecisionRequested Decision = "requested"
	DecisionApproved  Decision = "approved"
	DecisionRejected  Decision = "rejected"
	DecisionExpired   Decision = "expired"
)

// ApprovalNotice tells every session on a cluster what became of a
// request: made, approved (with the run's result), rejected or expired.
type ApprovalNotice struct {
	Request  Request
	Decision Decision
	// By is who approved or rejected it; nil for DecisionRequested and DecisionExpired.
	By *lockcore.Operator
	// Err is the approved run's error; nil when it went through.
	Err error
}

// Text is the notice as the status line says it, and whether it is bad
// news.
func (n ApprovalNotice) Text() (string, bool) {
	r := n.Request
	what := string(r.Kind) + " of " + r.Nodes()
	asker := OperatorLabel(r.By)
	switch n.Decision {
	case DecisionRequested:
		return fmt.Sprintf("%s asks to %s %s: another operator approves it (:approve) before %s",
			asker, r.Kind, r.Nodes(), r.Expires.Format("15:04:05")), false
	case DecisionApproved:
		if n.Err != nil {
			return fmt.Sprintf("%s approved %s's %s, which failed: %s", OperatorLabel(*n.By), asker, what, Printable(n.Err.Error())), true
		}
		return fmt.Sprintf("%s approved %s's %s: done", OperatorLabel(*n.By), asker, what), false
	case DecisionRejected:
		return fmt.Sprintf("%s rejected %s's %s: nothing was changed", OperatorLabel(*n.By), asker, what), false
	}
	return fmt.Sprintf("%s's %s expired unapproved: nothing was changed", asker, what), false
}

// Gate is where an action waits for a second person: Submit files the
// request (its ID and Expires set by the gate) with run, which makes the
// action when another operator approves it, told who they are.
type Gate interface {
	Submit(r Request, run func(ctx context.Context, approver lockcore.Operator) error) (Request, error)
}

// RefusingGate is the gate of a context that requires a second person
// where nobody can give the approval: every action is refused, saying
// why.
type RefusingGate string

// Submit refuses r.
func (g RefusingGate) Submit(Request, func(context.Context, lockcore.Operator) error) (Request, error) {
	return Request{}, fmt.Errorf("%w: %s", ErrApprovalRequired, string(g))
}

// made is how an action came to be made: who approved it (nil without
// the two-person rule) and where its confirmation is in the session's
// recording (nil when none is kept).
type made struct {
	approver *lockcore.Operator
	mark     *lockcore.RecordingMark
}

// Operator is who these actions act as.
func (a *Actions) Operator() lockcore.Operator {
	return lockcore.Operator{User: a.User, Host: a.Host, Key: a.Key, Cert: a.Cert}
}

// gated makes the action at once, or with a Gate files it as a request
// and returns ErrAwaitingApproval (naming the request) without acting.
// Read-only and unread nodes are refused first, in either case.
func (a *Actions) gated(ctx context.Context, kind lockcore.ActionKind, es []lockclient.Expect,
	run func(ctx context.Context, how made) error) error {
	if a.ReadOnly {
		return ErrReadOnly
	}
	for _, e := range es {
		if err := checkExpect(e); err != nil {
			return err
		}
	}
	for _, e := range es {
		if err := a.permitted(ctx, kind, e); err != nil {
			return err
		}
	}
	// The moment it was confirmed, also when it runs later, approved.
	how := made{}
	if a.Recording != nil {
		how.mark = a.Recording()
	}
	if a.Gate == nil {
		return run(ctx, how)
	}
	r, err := a.Gate.Submit(Request{Kind: kind, Expects: es, By: a.Operator(), At: a.now()},
		func(ctx context.Context, approver lockcore.Operator) error {
			how.approver = &approver
			return run(ctx, how)
		})
	if err != nil {
		return err
	}
	return fmt.Errorf("%w: request #%d, until %s", ErrAwaitingApproval, r.ID, r.Expires.Format("15:04:05"))
}

func (a *Actions) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// ActionSentence says what an operator did, for everyone else's status
// line and the event log: who (and who approved it), what, to which
// contender of which lock (position is its place in the queue as last
// shown, "" when not known), and its fencing token.
func ActionSentence(a lockcore.Action, position string) string {
	who := OperatorLabel(lockcore.Operator{User: a.User, Host: a.Host, Key: a.Key, Cert: a.Cert})
	target := Printable(a.Node)
	if position != "" {
		target = Printable(path.Dir(a.Node)) + " " + position
	}
	var s string
	switch a.Kind {
	case lockcore.ActionForceRelease:
		s = who + " force-released " + target
	case lockcore.ActionRevoke:
		s = who + " asked " + target + " to release (revoke)"
	case lockcore.ActionFence:
		s = who + " fenced " + target
	default:
		s = who + " " + Printable(string(a.Kind)) + " " + target
	}
	s += " · token " + TokenHex(a.Token)
	if o := a.ApprovedBy; o != nil {
		s += ", approved by " + OperatorLabel(*o)
	}
	if !a.Done() {
		s += ": failed: " + Printable(a.Failed)
	}
	return s
}
