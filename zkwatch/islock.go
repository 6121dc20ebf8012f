package zkwatch

import (
	"errors"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// systemTree is ZooKeeper's own subtree, never walked.
const systemTree = "/zookeeper"

// isLock decides whether a walked node is a lock. probed is the child it
// read to decide, if it read one, so that tracking need not read it again.
func (w *Watcher) isLock(path string, names []string, stat *zk.Stat) (isLock bool, probed []lockcore.Node, err error) {
	book := w.cfg.Analysis.Book
	if lockcore.IsDDLTask(path, names) {
		// A ClickHouse DDL task is shown while a host executes it.
		active, _, err := w.list(lockcore.JoinPath(path, "active"))
		if errors.Is(err, zk.ErrNoNode) {
			return false, nil, nil
		}
		return err == nil && len(active) > 0, nil, err
	}
	if len(names) == 0 {
		// A single-node entry of the rule book names its node by path.
		if _, persistent, ok := book.SingleNodeEntry(path); ok && (persistent || stat.EphemeralOwner != 0) {
			return true, nil, nil
		}
	}
	if stat.EphemeralOwner != 0 && len(names) == 0 {
		// A kazoo semaphore's waiter holds a node in its sibling queue,
		// which a walk reaches through their common parent: that node is
		// the semaphore's contender, whatever its name.
		if _, part, err := w.semaphoreOf(ParentOf(path)); err != nil || part {
			return false, nil, err
		}
		return w.isLockNode(path)
	}
	if _, part, err := w.semaphoreOf(path); err != nil || part {
		return false, nil, err
	}
	self := lockcore.Node{Name: lockcore.BaseName(path), Stat: *stat}
	switch c, probe := book.Classify(path, self, names); c {
	case lockcore.IsALock:
		return true, nil, nil
	case lockcore.IfEphemeral:
		n, err := w.get(lockcore.JoinPath(path, probe))
		switch {
		case errors.Is(err, zk.ErrNoNode):
			return false, nil, nil
		case err != nil:
			return false, nil, err
		}
		return n.Ephemeral(), []lockcore.Node{n}, nil
	}
	return false, nil, nil
}

// isLockNode decides whether an ephemeral leaf is a lock: by its path, or,
// where an application keeps a single-node election under a plain name
// (Kafka's controller, HBase's master), by its data.
func (w *Watcher) isLockNode(path string) (bool, []lockcore.Node, error) {
	if w.cfg.Analysis.Book.IsLockNode(path) {
		return true, nil, nil
	}
	if !lockcore.MaybeAppLockNode(path) {
		return false, nil, nil
	}
	n, err := w.get(path)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return false, nil, nil
	case err != nil:
		return false, nil, err
	}
	return lockcore.IsAppLockNode(path, n), nil, nil
}

// semaphoreOf returns the semaphore p is a part of (lockcore.SemaphorePart),
// and whether it reads as one, so that the part is not shown as a lock of
// its own. A read that fails says nothing (a semaphore read as the
// connection drops is still one): its error is returned; a semaphore node
// that is gone is none.
func (w *Watcher) semaphoreOf(p string) (sem string, part bool, err error) {
	sem, ok := lockcore.SemaphorePart(p)
	if !ok {
		return "", false, nil
	}
	self, err := w.get(sem)
	if errors.Is(err, zk.ErrNoNode) {
		return sem, false, nil
	}
	if err != nil {
		return sem, false, err
	}
	names, _, err := w.list(sem)
	if errors.Is(err, zk.ErrNoNode) {
		return sem, false, nil
	}
	if err != nil {
		return sem, false, err
	}
	return sem, len(lockcore.ExtraPaths(sem, self, names)) > 0, nil
}

// related reads a node an application keeps beside a lock, arming a data
// watch on it (an exists watch while it does not exist) so that a change
// reads the lock again; a node that does not exist is the zero Node.
// Unlike contenders, these nodes change (an epoch, a breadcrumb), so they
// are read again every time.
func (w *Watcher) related(path string) (lockcore.Node, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	if !w.claimWatch(path) {
		n, err := w.read(path, lockcore.BaseName(path))
		if errors.Is(err, zk.ErrNoNode) {
			return lockcore.Node{}, nil
		}
		return n, err
	}
	type got struct {
		node   lockcore.Node
		exists bool
	}
	r, err := guard(w, func() (got, error) {
		data, stat, _, err := w.conn.zk.GetW(w.conn.abs(path))
		switch {
		case errors.Is(err, zk.ErrNoNode):
			exists, _, _, err := w.conn.zk.ExistsW(w.conn.abs(path))
			if err == nil && exists {
				// Created in between: its creation fired the watch.
				return got{}, nil
			}
			return got{}, err
		case errors.Is(err, zk.ErrNoAuth):
			n, err := w.conn.statNode(path, lockcore.BaseName(path))
			if err == nil {
				// No data watch could be armed: the exists watch of
				// statNode is not one, so read it on the lock's changes.
				w.disarm(path)
			}
			return got{n, true}, err
		case err != nil:
			return got{}, err
		}
		if len(data) > lockcore.DataLimit {
			data = append([]byte(nil), data[:lockcore.DataLimit]...)
		}
		return got{lockcore.Node{Name: lockcore.BaseName(path), Stat: *stat, Data: data}, true}, nil
	})
	if err != nil {
		w.disarm(path)
		return lockcore.Node{}, err
	}
	return r.node, nil
}
