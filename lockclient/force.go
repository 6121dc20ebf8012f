package lockclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockcore"
)

// Expect is a contender as the operator was shown it. An action on it goes
// ahead only while the node is still that node: same czxid (not a new node
// at the same path), same owner session, same version.
type Expect struct {
	Path           string
	Czxid          int64
	EphemeralOwner int64
	Version        int32
}

// ExpectNode is the Expect of a node as read.
func ExpectNode(path string, n lockcore.Node) Expect {
	return Expect{Path: path, Czxid: n.Stat.Czxid, EphemeralOwner: n.Stat.EphemeralOwner, Version: n.Stat.Version}
}

// ExpectParticipant is the Expect of a participant as analysed.
func ExpectParticipant(p lockcore.Participant) Expect {
	return Expect{Path: p.Path, Czxid: p.Token, EphemeralOwner: p.Session, Version: p.Version}
}

// check re-reads the node and compares it with what was shown.
func (e Expect) check(c ZK) (*zk.Stat, error) {
	_, stat, err := c.Get(e.Path)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return nil, fmt.Errorf("%w: %s", ErrNodeGone, e.Path)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", e.Path, err)
	case stat.Czxid != e.Czxid:
		return nil, fmt.Errorf("%w: %s is a different node now (czxid 0x%x, was 0x%x)", ErrNodeChanged, e.Path, stat.Czxid, e.Czxid)
	case stat.EphemeralOwner != e.EphemeralOwner:
		return nil, fmt.Errorf("%w: %s belongs to session 0x%x now, was 0x%x", ErrNodeChanged, e.Path, uint64(stat.EphemeralOwner), uint64(e.EphemeralOwner))
	case stat.Version != e.Version:
		return nil, fmt.Errorf("%w: %s has version %d now, was %d", ErrNodeChanged, e.Path, stat.Version, e.Version)
	}
	return stat, nil
}

// ForceDelete deletes a contender (usually a holder) if it is still the
// node that was shown, with a version check so that a change in between
// aborts. Its session is not told: a holder whose node is deleted still
// believes it holds, while the next waiter is let in. When ctx ends first,
// ForceDelete returns ctx's error; a request already sent may still be
// applied (go-zookeeper requests cannot be withdrawn), and the version
// check still guards it.
func ForceDelete(ctx context.Context, c ZK, e Expect) error {
	return withinChecked(ctx, c, e, func() error {
		return deleteErr(e, c.Delete(e.Path, e.Version))
	})
}

// Revoke asks a holder to release, Curator-style, by writing __REVOKE__
// into its node (version-checked). Only a Curator holder that made its lock
// revocable acts on it; it is a request, not force. ctx is as ForceDelete's.
func Revoke(ctx context.Context, c ZK, e Expect) error {
	return withinChecked(ctx, c, e, func() error {
		_, err := c.Set(e.Path, []byte(lockcore.RevokeRequest), e.Version)
		return deleteErr(e, err)
	})
}

// Fence deletes the given nodes in one transaction: each with its version
// checked, all or none. A node that changed or vanished since it was shown
// aborts the whole fence. ctx is as ForceDelete's: the transaction, once
// sent, is still all or none.
func Fence(ctx context.Context, c ZK, es []Expect) error {
	if len(es) == 0 {
		return nil
	}
	return within(ctx, func() error {
		ops := make([]interface{}, 0, len(es))
		for _, e := range es {
			if _, err := e.check(c); err != nil {
				return err
			}
			ops = append(ops, &zk.DeleteRequest{Path: e.Path, Version: e.Version})
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := c.Multi(ops...)
		if err == nil {
			return nil
		}
		for i, r := range res {
			if r.Error != nil && i < len(es) {
				return deleteErr(es[i], r.Error)
			}
		}
		return fmt.Errorf("fence: %w", err)
	})
}

// within runs do, returning its result, or ctx's error if ctx ends first
// (do then finishes on its own; its result is dropped).
// withinChecked is within, doing write only while e's node is still the
// node that was shown and ctx has not ended.
func withinChecked(ctx context.Context, c ZK, e Expect, write func() error) error {
	return within(ctx, func() error {
		if _, err := e.check(c); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		return write()
	})
}

func within(ctx context.Context, do func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	result := make(chan error, 1)
	go func() { result <- do() }()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func deleteErr(e Expect, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, zk.ErrNoNode):
		return fmt.Errorf("%w: %s", ErrNodeGone, e.Path)
	case errors.Is(err, zk.ErrBadVersion):
		return fmt.Errorf("%w: %s changed just before the delete", ErrNodeChanged, e.Path)
	}
	return fmt.Errorf("%s: %w", e.Path, err)
}
