package lockcore

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-zookeeper/zk"
)

// acquireLease takes a semaphore lease the way the semaphore's own clients
// do, so they count us: queue in its mutex, then, at the head, wait for a
// free lease, take it, and leave the queue.
func acquireLease(ctx context.Context, c ZK, spec Spec, recipe Recipe, data []byte) (*Held, error) {
	var queueDir, leaseDir string
	switch recipe {
	case RecipeCuratorSemaphore:
		if spec.MaxLeases <= 0 {
			return nil, fmt.Errorf("%w: Curator does not store a semaphore's max leases in the tree; give it", ErrRecipe)
		}
		queueDir, leaseDir = join(spec.Path, curatorLocksDir), join(spec.Path, curatorLeasesDir)
	case RecipeKazooSemaphore:
		max, err := kazooMaxLeases(c, spec.Path, spec.MaxLeases)
		if err != nil {
			return nil, err
		}
		spec.MaxLeases = max
		queueDir, leaseDir = kazooQueuePath(spec.Path), spec.Path
	}
	for _, dir := range []string{queueDir, leaseDir} {
		if err := ensurePath(c, dir); err != nil {
			return nil, err
		}
	}
	queueRecipe := RecipeCuratorMutex
	if recipe == RecipeKazooSemaphore {
		queueRecipe = RecipeKazooLock
	}
	queued, err := enqueue(ctx, c, queueDir, queueRecipe, ModeExclusive, data)
	if err != nil {
		return nil, err
	}
	defer abandon(c, queued)
	if err := waitTurn(ctx, c, queueDir, queued, spec.Progress); err != nil {
		return nil, err
	}
	lease, err := takeLease(ctx, c, recipe, leaseDir, spec.MaxLeases, data, queued, spec.Progress)
	if err != nil {
		return nil, err
	}
	own, err := watchOwn(c, lease)
	if err != nil {
		abandon(c, lease)
		return nil, err
	}
	return hold(c, lease, recipe, ModeLease, own), nil
}

// takeLease waits, watching the lease children, until a lease is free.
// Curator creates its lease first and waits until the leases are at most
// maxLeases; kazoo waits until fewer than maxLeases are held, then creates.
func takeLease(ctx context.Context, c ZK, recipe Recipe, dir string, max int, data []byte, queued string, progress func(Progress)) (string, error) {
	var lease string
	if recipe == RecipeCuratorSemaphore {
		created, err := c.Create(dir+"/_c_"+newUUID()+"-lease-", data, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
		if err != nil {
			return "", fmt.Errorf("%s: %w", dir, err)
		}
		lease = created
	}
	for {
		names, _, ch, err := c.ChildrenW(dir)
		if err != nil {
			abandonIf(c, lease)
			return "", fmt.Errorf("%s: %w", dir, err)
		}
		switch {
		case recipe == RecipeCuratorSemaphore && len(names) <= max:
			return lease, nil
		case recipe == RecipeKazooSemaphore && len(names) < max:
			created, err := c.Create(dir+"/"+newHex(), data, zk.FlagEphemeral, zk.WorldACL(zk.PermAll))
			if err != nil {
				return "", fmt.Errorf("%s: %w", dir, err)
			}
			return created, nil
		}
		if progress != nil {
			progress(Progress{Node: queued, Watching: dir})
		}
		select {
		case ev := <-ch:
			if ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired) {
				return "", fmt.Errorf("%w: session expired while waiting for a lease", ErrLockLost)
			}
		case <-ctx.Done():
			abandonIf(c, lease)
			return "", ctx.Err()
		}
	}
}

func abandonIf(c ZK, node string) {
	if node != "" {
		abandon(c, node)
	}
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
			return 0, fmt.Errorf("%w: %s holds max leases %d, not %d", ErrRecipe, path.Base(p), have, want)
		}
		return have, nil
	}
	if want <= 0 {
		return 0, fmt.Errorf("%w: %s records no max leases; give it", ErrRecipe, p)
	}
	if _, err := c.Set(p, []byte(strconv.Itoa(want)), stat.Version); err != nil {
		return 0, fmt.Errorf("%s: %w", p, err)
	}
	return want, nil
}
