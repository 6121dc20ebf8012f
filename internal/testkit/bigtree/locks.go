package bigtree

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
)

// locksPerGroup spreads the lock parents over directories that hold no
// lock themselves, as applications group their locks.
const locksPerGroup = 100

// contenderData is what Curator writes into a contender: its address.
var contenderData = []byte("10.0.0.7")

// buildLocks creates the lock parents, then each contender session's node
// in every lock, one session after the other so that queue order is
// session order, and each waiter's watch on its predecessor.
func (t *Tree) buildLocks(ctx context.Context, servers []string, admin *zk.Conn, spec Spec) error {
	if spec.Locks <= 0 || spec.Contenders <= 0 {
		return errNoSpec
	}
	var groups []string
	for i := range (spec.Locks + locksPerGroup - 1) / locksPerGroup {
		groups = append(groups, fmt.Sprintf("/app/locks/group-%03d", i))
	}
	if err := t.createAll(ctx, admin, groups, nil, 0); err != nil {
		return err
	}
	for i := range spec.Locks {
		t.LockPaths = append(t.LockPaths, fmt.Sprintf("%s/lock-%05d", groups[i/locksPerGroup], i))
	}
	if err := t.createAll(ctx, admin, t.LockPaths, nil, 0); err != nil {
		return err
	}
	prev := make([]string, len(t.LockPaths)) // each lock's last contender
	for range spec.Contenders {
		c, err := t.connect(ctx, servers)
		if err != nil {
			return err
		}
		created, err := t.contend(ctx, c, t.LockPaths)
		if err != nil {
			return err
		}
		if err := t.watchPredecessors(ctx, c, prev); err != nil {
			return err
		}
		prev = created
	}
	for i := range spec.Stale {
		t.StalePaths = append(t.StalePaths, fmt.Sprintf("/app/stale/lock-%03d", i))
	}
	if err := t.createAll(ctx, admin, t.StalePaths, nil, 0); err != nil {
		return err
	}
	var stale []string
	for _, p := range t.StalePaths {
		stale = append(stale, p+"/"+curatorPrefix()+"0000000000")
	}
	return t.createAll(ctx, admin, stale, contenderData, 0)
}

// contend creates one Curator contender in each parent, in multi batches,
// and returns their paths in parents' order. c's session must last: its
// contenders' places in each queue could not be made again.
func (t *Tree) contend(ctx context.Context, c *zk.Conn, parents []string) ([]string, error) {
	created := make([]string, len(parents))
	sid := c.SessionID()
	var batches [][2]int
	for lo := 0; lo < len(parents); lo += batch {
		batches = append(batches, [2]int{lo, min(lo+batch, len(parents))})
	}
	err := pipeline(ctx, batches, func(b [2]int) error {
		ops := make([]any, 0, b[1]-b[0])
		prefixes := make([]string, 0, b[1]-b[0])
		for _, p := range parents[b[0]:b[1]] {
			prefixes = append(prefixes, curatorPrefix())
			ops = append(ops, &zk.CreateRequest{Path: p + "/" + prefixes[len(prefixes)-1], Data: contenderData,
				Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral | zk.FlagSequence})
		}
		again := false
		err := resume(ctx, c, sid, func() error {
			if again {
				// As Curator does with its protected names: a multi cut
				// off by a lost connection either made every node or
				// none, and the first one's GUID says which.
				made, err := protectedMade(ctx, c, sid, parents[b[0]:b[1]], prefixes, created[b[0]:b[1]])
				if err != nil || made {
					return err
				}
			}
			again = true
			res, err := c.Multi(ops...)
			if err = multiErr(res, err); err == nil {
				for i, r := range res {
					created[b[0]+i] = r.String
				}
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("bigtree: contenders in %s and %d more: %w", parents[b[0]], b[1]-b[0]-1, err)
		}
		return nil
	})
	if err == nil {
		t.count(len(parents), 0)
	}
	return created, err
}

// watchPredecessors sets c's exists watch on each path (empty: none), as a
// Curator waiter does on the contender ahead of it.
func (t *Tree) watchPredecessors(ctx context.Context, c *zk.Conn, paths []string) error {
	var targets []string
	for _, p := range paths {
		if p != "" {
			targets = append(targets, p)
		}
	}
	return t.watchAll(ctx, c, targets)
}

// watchAll sets an exists watch on every path from c. A request cut off
// by a lost connection (a server busy with a million watches on a loaded
// machine can be silent past the client's receive timeout) is made again
// once the session is back: the session and the watches already set
// survive a reconnect, and setting a watch twice is setting it once.
// A session that expired meanwhile lost them all: errSessionLost.
func (t *Tree) watchAll(ctx context.Context, c *zk.Conn, paths []string) error {
	sid := c.SessionID()
	err := pipeline(ctx, paths, func(p string) error {
		err := resume(ctx, c, sid, func() error {
			_, _, _, err := c.ExistsW(p)
			return err
		})
		if err != nil {
			return fmt.Errorf("bigtree: watch %s: %w", p, err)
		}
		return nil
	})
	if err == nil {
		t.count(0, len(paths))
	}
	return err
}

// buildServices registers n ephemeral service instances from one session,
// ten services to a directory that holds no lock.
func (t *Tree) buildServices(ctx context.Context, servers []string, admin *zk.Conn, n int) error {
	if n <= 0 {
		return nil
	}
	c, err := t.connect(ctx, servers)
	if err != nil {
		return err
	}
	var dirs, instances []string
	for i := range (n + 9) / 10 {
		dirs = append(dirs, fmt.Sprintf("/services/svc-%03d", i))
	}
	for i := range n {
		instances = append(instances, fmt.Sprintf("%s/instance-%05d", dirs[i/10], i))
	}
	if err := t.createAll(ctx, admin, dirs, nil, 0); err != nil {
		return err
	}
	// The instances' session expired, they went with it: made again, on
	// the session go-zookeeper opened in its place.
	for {
		err := t.createAll(ctx, c, instances, []byte(`{"host":"10.0.0.9","port":8080}`), zk.FlagEphemeral)
		if !errors.Is(err, errSessionLost) {
			return err
		}
		if err := waitSession(ctx, c, anySession); err != nil {
			return err
		}
	}
}

// watchForeign has two sessions hold n data watches between them on the
// plain znodes, as Kafka brokers and HBase region servers do.
func (t *Tree) watchForeign(ctx context.Context, servers []string, plain []string, n int) error {
	if n <= 0 {
		return nil
	}
	per := (n + 1) / 2
	if per > len(plain) {
		return fmt.Errorf("bigtree: %d foreign watches need %d plain znodes per session, only %d made", n, per, len(plain))
	}
	for s := range 2 {
		c, err := t.connect(ctx, servers)
		if err != nil {
			return err
		}
		// The session expired, its watches went with it: set again, on
		// the session go-zookeeper opened in its place.
		err = t.watchAll(ctx, c, plain[:min(per, n-s*per)])
		for errors.Is(err, errSessionLost) {
			if err = waitSession(ctx, c, anySession); err == nil {
				err = t.watchAll(ctx, c, plain[:min(per, n-s*per)])
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// curatorPrefix is the protected name Curator gives a contender before the
// server appends its sequence: _c_<uuid>-lock-.
func curatorPrefix() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return fmt.Sprintf("_c_%s-%s-%s-%s-%s-lock-", h[:8], h[8:12], h[12:16], h[16:20], h[20:])
}
