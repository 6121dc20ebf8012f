package model

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// Errors of the operator's actions.
var (
	// ErrReadOnly refuses every action that writes to ZooKeeper under
	// --read-only or a read-only context (callers say which).
	ErrReadOnly = errors.New("read-only: zklocks changes nothing")
	// ErrAudit: the action went through, but its audit line could not be
	// written. It is returned only when the action itself succeeded.
	ErrAudit = errors.New("audit log")
)

// Actions are the operator's writes to ZooKeeper, shared by the terminal UI
// and the command line: each is refused under read-only and on a node not
// read yet (ErrNotRead), checks that the node is still what was shown, and writes one audit line, success or not.
// Confirmation is the caller's job.
type Actions struct {
	// ZK is the connection acted on; Close the Actions as it closes.
	ZK       lockclient.ZK
	Audit    *Audit
	ReadOnly bool
	// Server, User, Host and Via (ViaUI, ViaCLI or ViaSSH) are written
	// into audit lines.
	Server, User, Host, Via string
	// Key, under zklocks serve, is the fingerprint of the SSH key User
	// signed in with, written into audit lines; "" otherwise.
	Key string
	// Cert, under zklocks serve, is the SSH certificate User signed in
	// with, written into audit lines; nil for a plain key.
	Cert *lockcore.Certificate
	// Recording, when set, says where in the acting session's recording
	// the action was confirmed, for its audit line.
	Recording func() *lockcore.RecordingMark
	// Gate, when set, holds force-release, revoke and fence for a second
	// person's approval (the two-person rule): they return
	// ErrAwaitingApproval, and run when another operator approves them.
	Gate Gate
	// Now is the clock for audit lines; nil means time.Now.
	Now func() time.Time
	// NewSession, when set, dials a session of Acquire's own, ended (with
	// close) when the acquisition fails or gives up, or when the lock is
	// released. ZK is then only for the other actions. A reader that also
	// waits on a lock through its own session leaves a watch behind when
	// it gives up (ZooKeeper removes a watch only when it fires or its
	// session closes), which every other observer counts against the
	// lock; and it cannot tell its waiter's watches from its own reading.
	NewSession func(ctx context.Context) (zk lockclient.ZK, close func(), err error)
	// Told, when set, gets every action made, audited or not, also
	// without an audit log: the program passes it on among the watcher's
	// events (see ActionFeed), so that the state, the event log and a
	// recording say what the operator did. It must not block.
	Told func(lockcore.Action)
	// Access, when set, reads whether the session may do an action on a
	// node (the ACL that decides, against the session's identities):
	// summary says who may, for a confirmation; refusal, when the ACL
	// grants the permission to no identity of the session, refuses the
	// action before it is tried (or put to a second person). nil checks
	// nothing: the server decides.
	Access func(ctx context.Context, kind lockcore.ActionKind, node string) (summary string, refusal error)

	once  sync.Once
	locks *lockclient.Client // our lock client on ZK, made at the first Acquire
}

// ForceRelease deletes a contender, version-checked (see lockclient.ForceDelete);
// it gives up when ctx ends.
func (a *Actions) ForceRelease(ctx context.Context, e lockclient.Expect) error {
	return a.gated(ctx, lockcore.ActionForceRelease, []lockclient.Expect{e}, func(ctx context.Context, by made) error {
		return a.act(lockcore.ActionForceRelease, e, by, func() error { return lockclient.ForceDelete(ctx, a.ZK, e) })
	})
}

// Revoke asks a holder to release, Curator-style (see lockclient.Revoke). A
// node whose client would ignore the request is refused with
// lockcore.ErrNotRevocable (see lockcore.CheckRevocable), and nothing is
// written. It gives up when ctx ends.
func (a *Actions) Revoke(ctx context.Context, e lockclient.Expect) error {
	if err := lockcore.CheckRevocable(path.Base(e.Path), e.EphemeralOwner); err != nil && a.Gate != nil && !a.ReadOnly {
		// Not a request worth a second person's time.
		return err
	}
	return a.gated(ctx, lockcore.ActionRevoke, []lockclient.Expect{e}, func(ctx context.Context, by made) error {
		return a.act(lockcore.ActionRevoke, e, by, func() error {
			if err := lockcore.CheckRevocable(path.Base(e.Path), e.EphemeralOwner); err != nil {
				return err
			}
			return lockclient.Revoke(ctx, a.ZK, e)
		})
	})
}

// AwaitRelease waits, as long as ctx allows, for the holder asked by
// Revoke to release (see lockclient.AwaitRelease): true once its node is
// gone. It only reads, so it is neither refused under read-only nor
// audited.
func (a *Actions) AwaitRelease(ctx context.Context, e lockclient.Expect) (bool, error) {
	return lockclient.AwaitRelease(ctx, a.ZK, e)
}

// Fence deletes the chosen nodes atomically (see lockclient.Fence); one
// audit line per node, all with the transaction's result. It gives up when
// ctx ends.
func (a *Actions) Fence(ctx context.Context, es []lockclient.Expect) error {
	return a.gated(ctx, lockcore.ActionFence, es, func(ctx context.Context, by made) error {
		err := lockclient.Fence(ctx, a.ZK, es)
		for _, e := range es {
			if aerr := a.record(lockcore.ActionFence, e, by, err); aerr != nil && err == nil {
				err = aerr
			}
		}
		return err
	})
}

// Acquire joins a lock with our own client (see lockclient.Acquire). Holding
// a lock writes a node, so it is refused under read-only too; it is not a
// destructive action and is not audited.
func (a *Actions) Acquire(ctx context.Context, spec lockclient.Spec) (*lockclient.Held, error) {
	if a.ReadOnly {
		return nil, ErrReadOnly
	}
	if a.NewSession == nil {
		h, err := a.client().Acquire(ctx, spec)
		if err == nil {
			h.OnRelease(func() { a.toldReleased(h) })
		}
		return h, err
	}
	c, end, err := a.NewSession(ctx)
	if err != nil {
		return nil, fmt.Errorf("a session to acquire on: %w", err)
	}
	// A lock client of the session's own: its background deletes end
	// with the session.
	own := lockclient.NewClient(c)
	h, err := own.Acquire(ctx, spec)
	if err != nil {
		end()
		own.Close()
		return nil, err
	}
	h.OnRelease(func() { a.toldReleased(h); end(); own.Close() })
	return h, nil
}

// toldReleased tells (Told) that h's release deleted its node itself, so
// that the event log says released, where a watch alone reads "released,
// or force-released by another client".
func (a *Actions) toldReleased(h *lockclient.Held) {
	if a.Told != nil && h.DeletedOwn() {
		a.Told(OwnRelease(a.now().UTC(), h.Node, h.Token, h.Session))
	}
}

func (a *Actions) client() *lockclient.Client {
	a.once.Do(func() { a.locks = lockclient.NewClient(a.ZK) })
	return a.locks
}

// Close stops what the Actions' lock client still does in the background
// (the guaranteed delete of a node of ours, see lockclient.Client) and
// waits for it to stop. Call it as the connection closes (see
// lockclient.Client), whose session's end deletes our nodes too. Nil
// Actions close as a no-op.
func (a *Actions) Close() error {
	if a == nil {
		return nil
	}
	return a.client().Close()
}

// act makes one action on e (read-only and e checked by gated) and
// audits it, naming its approver when it had one.
func (a *Actions) act(action lockcore.ActionKind, e lockclient.Expect, how made, do func() error) error {
	err := do()
	if aerr := a.record(action, e, how, err); aerr != nil && err == nil {
		return aerr
	}
	return err
}

// Refused writes the audit line of an attempt that was refused before
// anything reached ZooKeeper: the operator was asked to confirm and did
// not (no terminal to ask on and no --yes, or an answer other than y), or
// the node's ACL does not let this session do it; why says which. Nothing
// changed, so Told is not called: there is nothing for the state to
// follow.
func (a *Actions) Refused(action lockcore.ActionKind, e lockclient.Expect, why error) error {
	if a.Audit == nil {
		return nil
	}
	if err := a.Audit.Record(a.action(action, e, made{}, why)); err != nil {
		return fmt.Errorf("%w: %w", ErrAudit, err)
	}
	return nil
}

// record writes the audit line; failing to audit is itself an error worth
// showing, since the action already happened.
func (a *Actions) record(action lockcore.ActionKind, e lockclient.Expect, how made, result error) error {
	if a.Audit == nil && a.Told == nil {
		return nil
	}
	act := a.action(action, e, how, result)
	if a.Told != nil {
		a.Told(act)
	}
	if a.Audit == nil {
		return nil
	}
	err := a.Audit.Record(act)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrAudit, err)
	}
	return nil
}

// action is the audit line of action on e, made how, failed with result
// unless nil.
func (a *Actions) action(action lockcore.ActionKind, e lockclient.Expect, how made, result error) lockcore.Action {
	act := lockcore.Action{At: a.now().UTC(), Kind: action, Node: e.Path, Token: e.Czxid, Owner: e.EphemeralOwner,
		User: a.User, Host: a.Host, Via: a.Via, Key: a.Key, Cert: a.Cert, ApprovedBy: how.approver, Recording: how.mark, Server: a.Server, Session: a.ZK.SessionID()}
	if result != nil {
		act.Failed = result.Error()
		if act.Failed == "" {
			act.Failed = "failed"
		}
	}
	return act
}

// permitted is Access's refusal of e, if any: an action the ACL does not
// allow is refused before it is tried, and audited as a refused attempt.
func (a *Actions) permitted(ctx context.Context, action lockcore.ActionKind, e lockclient.Expect) error {
	if a.Access == nil {
		return nil
	}
	_, refusal := a.Access(ctx, action, e.Path)
	if refusal == nil {
		return nil
	}
	if aerr := a.Refused(action, e, refusal); aerr != nil {
		return fmt.Errorf("%w; %w", refusal, aerr)
	}
	return refusal
}
