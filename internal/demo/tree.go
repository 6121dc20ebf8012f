package demo

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockclient"
)

// ownPaths are the nodes a recipe's demo lives in, each removed with
// everything below it at Close.
func (d *Demo) ownPaths() []string {
	switch d.cfg.Recipe {
	case Naive:
		return []string{path.Dir(d.lockPath)}
	case Semaphore:
		return []string{d.lockPath, d.lockPath + "-__lock__"}
	}
	return []string{d.lockPath}
}

// prepare refuses a lock that has contenders, and creates the lock's
// parents (the naive lock's node itself is the contenders' to create).
func (d *Demo) prepare() error {
	c := d.admin.LockZK()
	for _, p := range d.ownPaths() {
		names, _, err := c.Children(p)
		switch {
		case errors.Is(err, zk.ErrNoNode):
		case err != nil:
			return fmt.Errorf("demo: %s: %w", p, err)
		case len(names) > 0:
			return fmt.Errorf("%w: %s has %d contenders: another demo runs against this cluster, or one stopped "+
				"less than a session timeout ago", ErrBusy, p, len(names))
		}
	}
	for _, p := range d.ownPaths() {
		if err := ensurePath(c, p); err != nil {
			return err
		}
	}
	if d.cfg.Recipe == Semaphore {
		// kazoo keeps the limit in the semaphore's data; a leftover limit
		// from an earlier demo would be refused.
		if _, err := c.Set(d.lockPath, []byte(fmt.Sprint(d.cfg.MaxLeases)), -1); err != nil {
			return fmt.Errorf("demo: %s: %w", d.lockPath, err)
		}
	}
	return nil
}

func ensurePath(c lockclient.ZK, p string) error {
	if p == "/" {
		return nil
	}
	if err := ensurePath(c, path.Dir(p)); err != nil {
		return err
	}
	if _, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		return fmt.Errorf("demo: create %s: %w", p, err)
	}
	return nil
}

// cleanup deletes the demo's nodes, then Root if nothing else is under it.
func (d *Demo) cleanup(ctx context.Context) error {
	c := d.admin.LockZK()
	var errs []error
	for _, p := range d.ownPaths() {
		if err := deleteTree(ctx, c, p); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.Delete(Root, -1); err != nil && !errors.Is(err, zk.ErrNoNode) && !errors.Is(err, zk.ErrNotEmpty) {
		errs = append(errs, fmt.Errorf("demo: delete %s: %w", Root, err))
	}
	return errors.Join(errs...)
}

// deleteTree deletes p and everything below it. A node that gains a child
// meanwhile (a contender's session still ending) is tried again until ctx
// ends.
func deleteTree(ctx context.Context, c lockclient.ZK, p string) error {
	for {
		names, _, err := c.Children(p)
		if errors.Is(err, zk.ErrNoNode) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("demo: %s: %w", p, err)
		}
		for _, n := range names {
			if err := deleteTree(ctx, c, p+"/"+n); err != nil {
				return err
			}
		}
		err = c.Delete(p, -1)
		switch {
		case err == nil, errors.Is(err, zk.ErrNoNode):
			return nil
		case !errors.Is(err, zk.ErrNotEmpty):
			return fmt.Errorf("demo: delete %s: %w", p, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: delete %s: %w", p, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
