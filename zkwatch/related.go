package zkwatch

import (
	"errors"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

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
				w.mu.Lock()
				delete(w.watches.armed, path)
				w.mu.Unlock()
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
		w.mu.Lock()
		delete(w.watches.armed, path)
		w.mu.Unlock()
		return lockcore.Node{}, err
	}
	return r.node, nil
}
