package lockclient

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockcore"
)

// acquireLease takes a semaphore lease the way the semaphore's own clients
// do, so they count us: queue in its mutex, then, at the head, wait for a
// free lease, take it, and leave the queue.
func acquireLease(ctx context.Context, c clientConn, spec Spec, recipe lockcore.Recipe, data []byte) (*Held, error) {
	switch recipe {
	case lockcore.RecipeCuratorSemaphore:
		if spec.MaxLeases <= 0 {
			return nil, fmt.Errorf("%w: Curator does not store a semaphore's max leases in the tree; give it", lockcore.ErrRecipe)
		}
	case lockcore.RecipeKazooSemaphore:
		max, err := kazooMaxLeases(c, spec.Path, spec.MaxLeases)
		if err != nil {
			return nil, err
		}
		spec.MaxLeases = max
	}
	queueDir, leaseDir, queueRecipe := lockcore.SemaphoreDirs(recipe, spec.Path)
	for _, dir := range []string{queueDir, leaseDir} {
		if err := ensurePath(c, dir); err != nil {
			return nil, err
		}
	}
	q, err := enqueue(ctx, c, queueDir, queueRecipe, lockcore.ModeExclusive, data)
	if err != nil {
		return nil, err
	}
	// Leaving the queue, whatever happens, lets the next acquirer in.
	defer q.abandon(c)
	if err := waitTurn(ctx, c, q, nil, spec.Progress); err != nil {
		return nil, err
	}
	lease, err := takeLease(ctx, c, recipe, leaseDir, spec.MaxLeases, data, q.path, spec.Progress)
	if err != nil {
		return nil, err
	}
	own, err := watchOwn(ctx, c, lease.path)
	if err != nil {
		lease.abandon(c)
		return nil, err
	}
	lease.czxid = own.stat.Czxid
	return hold(c, lease, recipe, lockcore.ModeLease, own), nil
}

// takeLease waits, watching the lease children, until a lease is free.
// Curator creates its lease first (protected, as every Curator node) and
// waits until the leases are at most maxLeases; kazoo waits until fewer
// than maxLeases are held, then creates its lease under a fresh name,
// which after a lost reply is found again by that name. On failure the
// lease is deleted, in the background if need be.
func takeLease(ctx context.Context, c clientConn, recipe lockcore.Recipe, dir string, max int, data []byte, queued string, progress func(Progress)) (lease queued, err error) {
	lease.dir = dir
	defer func() {
		if err != nil && lease.path != "" {
			lease.abandon(c)
		}
	}()
	if recipe == lockcore.RecipeCuratorSemaphore {
		lease.prefix, lease.unique = lockcore.LeaseName(recipe), true
		lease.path, lease.session, lease.twins, err = createProtected(ctx, c, dir, lease.prefix, data)
		if err != nil {
			return lease, err
		}
	}
	kazooName := lockcore.LeaseName(recipe)
	for {
		names, _, ch, err := c.ChildrenW(dir)
		if retryable(err) {
			if err := pause(ctx); err != nil {
				return lease, err
			}
			continue
		}
		if err != nil {
			return lease, fmt.Errorf("%s: %w", dir, err)
		}
		if lease.unique {
			sweepOrphans(c, dir, lease.prefix, path.Base(lease.path), lease.session, names)
		}
		switch {
		case recipe == lockcore.RecipeCuratorSemaphore && len(names) <= max:
			return lease, nil
		case recipe == lockcore.RecipeKazooSemaphore:
			got, err := takeKazooLease(c, dir, kazooName, names, max, data, &lease)
			if errors.Is(err, errLookAgain) {
				if err := pause(ctx); err != nil {
					return lease, err
				}
				continue
			}
			if got || err != nil {
				return lease, err
			}
		}
		if progress != nil {
			progress(Progress{Node: queued, Watching: dir})
		}
		select {
		case ev := <-ch:
			if ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired) {
				return lease, fmt.Errorf("%w: session expired while waiting for a lease", ErrLockLost)
			}
		case <-ctx.Done():
			return lease, ctx.Err()
		}
	}
}

// errLookAgain: a create failed with the connection; read the children
// again, which show whether it was applied.
var errLookAgain = errors.New("look again")

// takeKazooLease creates our kazoo lease when fewer than max are held. A
// create that failed with the connection may have been applied: our name
// among the children, owned by our session, is that lease.
func takeKazooLease(c ZK, dir, name string, names []string, max int, data []byte, lease *queued) (bool, error) {
	session := c.SessionID()
	lease.path, lease.session = dir+"/"+name, session
	if slices.Contains(names, name) {
		_, stat, err := c.Get(lease.path)
		if err == nil && stat.EphemeralOwner == session {
			return true, nil
		}
	}
	if len(names) >= max {
		lease.path = ""
		return false, nil
	}
	_, err := c.Create(lease.path, data, zk.FlagEphemeral, zk.WorldACL(zk.PermAll))
	switch {
	case err == nil:
		return true, nil
	case retryable(err):
		return false, errLookAgain
	}
	lease.path = ""
	return false, fmt.Errorf("%s: %w", dir, err)
}

// kazooMaxLeases reads the limit kazoo keeps in the semaphore's data, or
// writes want there when there is none yet; a different limit is refused,
// as kazoo refuses it.
func kazooMaxLeases(c ZK, p string, want int) (int, error) {
	if err := ensurePath(c, p); err != nil {
		return 0, err
	}
	data, stat, err := c.Get(p)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p, err)
	}
	if have, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
		if want > 0 && want != have {
			return 0, fmt.Errorf("%w: %s holds max leases %d, not %d", lockcore.ErrRecipe, path.Base(p), have, want)
		}
		return have, nil
	}
	if want <= 0 {
		return 0, fmt.Errorf("%w: %s records no max leases; give it", lockcore.ErrRecipe, p)
	}
	if _, err := c.Set(p, []byte(strconv.Itoa(want)), stat.Version); err != nil {
		return 0, fmt.Errorf("%s: %w", p, err)
	}
	return want, nil
}
