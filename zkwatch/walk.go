package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// systemTree is ZooKeeper's own subtree, never walked.
const systemTree = "/zookeeper"

// sync walks every root and named lock from scratch, reports locks that
// are gone since the last sync, and ends with EventSynced.
func (w *Watcher) sync(ctx context.Context) {
	w.mu.Lock()
	before := make(map[string]bool, len(w.locks))
	for p := range w.locks {
		before[p] = true
	}
	w.locks, w.owner, w.dirs = map[string]*tracked{}, map[string]string{}, map[string]*walked{}
	w.mu.Unlock()

	var wg sync.WaitGroup
	for _, root := range w.cfg.Roots {
		wg.Add(1)
		go w.visit(ctx, &wg, root, 0, true)
	}
	for _, p := range w.cfg.Locks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.track(ctx, p); err != nil {
				w.report(ctx, p, err, true)
			}
		}()
	}
	wg.Wait()

	w.mu.Lock()
	var gone []string
	for p := range before {
		if w.locks[p] == nil {
			gone = append(gone, p)
		}
	}
	w.mu.Unlock()
	sort.Strings(gone)
	for _, p := range gone {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: p})
	}
	w.emit(ctx, Event{Kind: EventSynced, At: time.Now()})
}

// visit walks path: a lock is tracked, any other node is descended into.
func (w *Watcher) visit(ctx context.Context, wg *sync.WaitGroup, path string, depth int, root bool) {
	defer wg.Done()
	if ctx.Err() != nil || path == systemTree || strings.HasPrefix(path, systemTree+"/") {
		return
	}
	names, stat, err := w.children(path)
	if err != nil {
		w.report(ctx, path, err, root)
		return
	}
	isLock, err := w.isLock(path, names, stat)
	if err != nil {
		w.report(ctx, path, err, false)
		return
	}
	if isLock {
		if err := w.track(ctx, path); err != nil {
			w.report(ctx, path, err, false)
		}
		return
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	w.mu.Lock()
	w.dirs[path] = &walked{depth: depth, names: set}
	w.mu.Unlock()
	if w.cfg.MaxDepth > 0 && depth >= w.cfg.MaxDepth {
		return
	}
	for _, n := range names {
		wg.Add(1)
		go w.visit(ctx, wg, joinPath(path, n), depth+1, false)
	}
}

// isLock decides whether a walked node is a lock.
func (w *Watcher) isLock(path string, names []string, stat *zk.Stat) (bool, error) {
	if stat.EphemeralOwner != 0 && len(names) == 0 {
		return lockcore.LooksLikeLockNode(path), nil
	}
	if sem, ok := lockcore.SemaphorePart(path); ok && w.isSemaphore(sem) {
		return false, nil
	}
	self := lockcore.Node{Name: baseName(path), Stat: *stat}
	switch c, probe := lockcore.Classify(self, names); c {
	case lockcore.IsALock:
		return true, nil
	case lockcore.IfEphemeral:
		n, err := w.get(joinPath(path, probe))
		if errors.Is(err, zk.ErrNoNode) {
			return false, nil
		}
		return err == nil && n.Ephemeral(), err
	}
	return false, nil
}

// isSemaphore reports whether sem is a semaphore whose part the walk has
// found, so that the part is not shown as a lock of its own.
func (w *Watcher) isSemaphore(sem string) bool {
	self, err := w.get(sem)
	if err != nil {
		return false
	}
	w.sem <- struct{}{}
	names, _, err := w.conn.zk.Children(w.conn.abs(sem))
	<-w.sem
	if err != nil {
		return false
	}
	return len(lockcore.ExtraPaths(sem, self, names)) > 0
}

// report turns a failed read into an event: a denied path, or an error
// (for a root that does not exist, an error wrapping ErrNoNode).
func (w *Watcher) report(ctx context.Context, path string, err error, root bool) {
	switch {
	case errors.Is(err, zk.ErrNoAuth):
		w.emit(ctx, Event{Kind: EventDenied, At: time.Now(), Path: path, Err: fmt.Errorf("%s: %w", path, err)})
	case errors.Is(err, zk.ErrNoNode) && !root:
		// It went while the walk reached it.
	default:
		w.emit(ctx, Event{Kind: EventError, At: time.Now(), Path: path, Err: fmt.Errorf("%s: %w", path, err)})
	}
}
