package zkwatch

import (
	"context"
	"errors"
	"path"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// addLockDir starts watching the directory holding a lock found for the
// first time, unless it is watched already, above the roots, or the
// watcher sets no watches.
func (d *discoverer) addLockDir(ctx context.Context, lock string) {
	dir := lockcore.ParentPath(lock)
	if d.w.cfg.Once || dir == lock || !d.underRoots(dir) {
		return
	}
	d.w.mu.Lock()
	_, watched := d.dirs.watched[dir]
	_, isLock := d.w.tracked.owner[dir]
	if !watched && !isLock {
		d.dirs.watched[dir] = &lockDir{kind: dirOfLocks}
	}
	d.w.mu.Unlock()
	if !watched && !isLock {
		d.relistDir(ctx, dir)
	}
}

// dirChanged lists a watched directory again after its watch fired (or
// its poll came) and looks at the children new since the last listing.
func (d *discoverer) dirChanged(ctx context.Context, dir string) {
	fresh := d.relistDir(ctx, dir)
	if len(fresh) == 0 {
		return
	}
	d.w.mu.Lock()
	ld := d.dirs.watched[dir]
	d.w.mu.Unlock()
	if ld == nil {
		return
	}
	work := d.w.newPool()
	for _, c := range fresh {
		switch ld.kind {
		case dirOfTree:
			work.do(func() { d.watchTree(ctx, work, c) })
		default:
			work.do(func() { d.checkNewChild(ctx, c) })
		}
	}
	work.run()
}

// relistDir lists dir (arming its watch again unless it is polled or no
// longer worth watching), reports it as found when it has become a lock,
// and returns its children not listed before and not known as locks.
func (d *discoverer) relistDir(ctx context.Context, dir string) []string {
	d.w.mu.Lock()
	ld := d.dirs.watched[dir]
	var kind dirKind
	polled, first := false, true
	if ld != nil {
		kind, polled, first = ld.kind, ld.polled, ld.known == nil
	}
	// A directory of locks whose locks have all gone is not watched again.
	orphan := ld != nil && kind == dirOfLocks && d.dirs.locks[dir] == 0
	if orphan {
		d.dirs.drop(dir)
	}
	d.w.mu.Unlock()
	if ld == nil || orphan {
		return nil
	}
	names, stat, err := d.listDir(dir, kind, polled, first)
	if errors.Is(err, zk.ErrNoNode) {
		d.dirGone(dir)
		return nil
	}
	if err != nil {
		d.w.report(ctx, dir, err, false)
		return nil
	}
	if kind != dirOfLocks {
		isLock, _, err := d.w.isLock(dir, names, stat)
		switch {
		case err == nil && isLock:
			d.dropDir(dir)
			d.foundLock(dir)
			return nil
		case kind == dirNew && len(names) > 0, stat.EphemeralOwner != 0:
			// Its first child made it something other than a lock, or it
			// is an ephemeral node, which never has children.
			d.dropDir(dir)
			return nil
		}
	}
	return d.noteListing(dir, ld, kind, first, names)
}

// dirGone stops watching dir, deleted, and forgets it among its parent's
// children: made again, it is new.
func (d *discoverer) dirGone(dir string) {
	d.dropDir(dir)
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	if parent := d.dirs.watched[path.Dir(dir)]; parent != nil {
		delete(parent.known, lockcore.BaseName(dir))
	}
}

// noteListing keeps what dir's listing names says in ld, unless dir was
// dropped (or watched anew) while it was listed: when to poll it next,
// and the children looked at. It returns the children new since the last
// listing.
func (d *discoverer) noteListing(dir string, ld *lockDir, kind dirKind, first bool, names []string) []string {
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	if d.dirs.watched[dir] != ld {
		return nil
	}
	if first && kind == dirOfLocks && len(names) > d.dirWatchMax() {
		ld.polled = true
	}
	if ld.polled {
		ld.nextPoll = time.Now().Add(max(dirPollEvery, time.Duration(len(names))*time.Second/dirPollRate))
	}
	if kind == dirNew {
		ld.known = map[string]bool{}
		return nil
	}
	// known keeps the children looked at and not locks; a lock is left out,
	// so that one deleted and made again under the same name between two
	// listings is looked at again. The children a directory of locks has
	// when it is first listed are left to the dump and the walk that found
	// its lock: looking at each would cost a read per sibling, unpaced.
	var fresh []string
	known := make(map[string]bool, len(names))
	for _, n := range names {
		c := lockcore.JoinPath(dir, n)
		if _, tracked := d.w.tracked.owner[c]; tracked || d.w.next.found[c] || d.dirs.tracking[c] {
			continue
		}
		if !ld.known[n] && d.dirs.watched[c] == nil && !(first && kind == dirOfLocks) {
			fresh = append(fresh, c)
		}
		known[n] = true
	}
	ld.known = known
	return fresh
}

// listDir lists a watched directory, arming its watch unless it is
// polled: a directory of locks is first listed without one, to count its
// children, and a new child is armed again only while it is still empty.
func (d *discoverer) listDir(dir string, kind dirKind, polled, first bool) ([]string, *zk.Stat, error) {
	switch {
	case polled:
		return d.w.list(dir)
	case kind == dirOfLocks && first, kind == dirNew && !first:
		names, stat, err := d.w.list(dir)
		if err != nil || kind == dirOfLocks && len(names) > d.dirWatchMax() || kind == dirNew && len(names) > 0 {
			return names, stat, err
		}
	}
	return d.w.children(dir)
}

// checkNewChild looks at a new child of a directory of locks: a lock is
// found; an empty persistent node, a lock parent before its first
// contender, is watched until its first child comes.
func (d *discoverer) checkNewChild(ctx context.Context, c string) {
	names, stat, err := d.w.list(c)
	if err != nil {
		d.w.report(ctx, c, err, false)
		return
	}
	if isLock, _, err := d.w.isLock(c, names, stat); err != nil || isLock {
		if isLock {
			d.foundLock(c)
		}
		return
	}
	if len(names) > 0 || stat.EphemeralOwner != 0 {
		return
	}
	d.w.mu.Lock()
	_, watched := d.dirs.watched[c]
	add := !watched && d.dirs.newDirs < newDirMax
	if add {
		d.dirs.watched[c] = &lockDir{kind: dirNew}
		d.dirs.newDirs++
	}
	d.w.mu.Unlock()
	if add {
		d.relistDir(ctx, c)
	}
}

// dropDir stops watching dir: its watch, if armed, fires once more and is
// not armed again.
func (d *discoverer) dropDir(dir string) {
	d.w.mu.Lock()
	d.dirs.drop(dir)
	d.w.mu.Unlock()
}
