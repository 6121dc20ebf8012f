package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// trackAbsent keeps tracking a plain ephemeral lock whose node is gone: the
// textbook lock's node comes and goes with each holder, so the lock stays,
// free, with an exists watch on its path that fires when the next holder
// creates it. A node created meanwhile is read at once.
func (w *Watcher) trackAbsent(ctx context.Context, path string, breaks int) error {
	exists, armed, err := w.existsW(path)
	if err != nil {
		return err
	}
	if exists && armed {
		// Created in between: the watch just armed fires when it goes.
		return w.track(ctx, path)
	}
	next := &lockcore.Tree{Path: path, Absent: true, ReadAt: time.Now()}
	w.store(ctx, next, []string{path}, breaks)
	return nil
}

// existsW arms an exists watch on path unless a watch is pending there,
// and reports whether the node exists and whether the watch was armed now.
func (w *Watcher) existsW(path string) (exists, armed bool, err error) {
	w.mu.Lock()
	arm := !w.armed[path]
	w.armed[path] = true
	w.mu.Unlock()
	if !arm {
		return false, false, nil
	}
	w.sem <- struct{}{}
	exists, err = guard(w, func() (bool, error) {
		exists, _, _, err := w.conn.zk.ExistsW(w.conn.abs(path))
		return exists, err
	})
	<-w.sem
	if err != nil {
		w.mu.Lock()
		delete(w.armed, path)
		w.mu.Unlock()
		return false, false, err
	}
	return exists, true, nil
}
