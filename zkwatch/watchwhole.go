package zkwatch

import "context"

// A tree the first walk found small enough is watched whole: a children
// watch on every directory under the roots, so that a lock made anywhere
// is seen at once, up to wholeTreeMax nodes.

// watchWhole watches every node under the roots, for a tree the first
// walk found small enough.
func (w *Watcher) watchWhole(ctx context.Context) {
	w.mu.Lock()
	w.dirs.wholeTree = true
	w.mu.Unlock()
	work := w.newPool()
	for _, root := range w.cfg.Roots {
		work.do(func() { w.watchTree(ctx, work, root) })
	}
	work.run()
}

// watchTree watches p and, unless it is a lock (then found), every node
// below it, queueing them on work.
func (w *Watcher) watchTree(ctx context.Context, work *pool, p string) {
	if ctx.Err() != nil || p == systemTree || !w.underRoots(p) {
		return
	}
	w.mu.Lock()
	_, tracked := w.tracked.owner[p]
	_, watched := w.dirs.watched[p]
	full := w.dirs.treeDirs >= wholeTreeMax
	if !tracked && !watched && !full {
		w.dirs.watched[p] = &lockDir{kind: dirOfTree}
		w.dirs.treeDirs++
	}
	w.dirs.treeFull = w.dirs.treeFull || full
	w.mu.Unlock()
	if tracked || watched || full {
		return
	}
	for _, c := range w.relistDir(ctx, p) {
		work.do(func() { w.watchTree(ctx, work, c) })
	}
}
