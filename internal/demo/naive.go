package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// naiveTurn takes the naive lock once, holds it, and releases it. With
// orphan, the first successful create's reply is "lost" and the contender
// creates again: the node exists (it is its own), so it waits for itself.
func (d *Demo) naiveTurn(ctx context.Context, c *contender, orphan bool) error {
	d.startWaiting(c, lockcore.ModeExclusive)
	if err := d.naiveAcquire(ctx, c); err != nil {
		return err
	}
	if orphan {
		d.orphaned(c, d.lockPath, lockcore.ModeExclusive)
		if err := d.naiveAcquire(ctx, c); err != nil {
			return err
		}
	}
	d.granted(c, d.lockPath, -1)
	d.hold(ctx, c, nil)
	deleted, err := d.naiveRelease(c)
	d.released(c, deleted)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// naiveAcquire is the textbook lock: create the ephemeral node; if it
// exists, watch it and, when it goes, try again, racing every other waiter.
func (d *Demo) naiveAcquire(ctx context.Context, c *contender) error {
	for {
		_, err := c.zk.Create(d.lockPath, d.data(c), zk.FlagEphemeral, openACL)
		if err == nil {
			return nil
		}
		if !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("demo: create %s: %w", d.lockPath, err)
		}
		d.arrive(c)
		exists, _, ch, err := c.zk.ExistsW(d.lockPath)
		if err != nil {
			return fmt.Errorf("demo: exists %s: %w", d.lockPath, err)
		}
		if !exists {
			continue
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// naiveRelease deletes the lock node if it is still ours, and says its
// token when our delete removed it (0 when it was gone first).
func (d *Demo) naiveRelease(c *contender) (int64, error) {
	_, stat, err := c.zk.Get(d.lockPath)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return 0, fmt.Errorf("%w: %s was already gone", lockclient.ErrLockLost, d.lockPath)
	case err != nil:
		return 0, fmt.Errorf("demo: %s: %w", d.lockPath, err)
	case stat.EphemeralOwner != c.session:
		return 0, fmt.Errorf("%w: %s belongs to session %s now", lockclient.ErrNotHolder, d.lockPath, lockcore.SessionHex(stat.EphemeralOwner))
	}
	switch err := c.zk.Delete(d.lockPath, stat.Version); {
	case err == nil:
		return stat.Czxid, nil
	case errors.Is(err, zk.ErrNoNode):
		return 0, nil
	default:
		return 0, fmt.Errorf("demo: delete %s: %w", d.lockPath, err)
	}
}
