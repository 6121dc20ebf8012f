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
	w.locks, w.owner, w.dirs = map[string]*lockcore.Tree{}, map[string]string{}, map[string]*walked{}
	w.mu.Unlock()

	work := w.newPool()
	for _, root := range w.cfg.Roots {
		work.do(func() { w.visit(ctx, work, root, 0, true) })
	}
	for _, p := range w.cfg.Locks {
		work.do(func() {
			if err := w.track(ctx, p); err != nil {
				w.report(ctx, p, err, true)
			}
		})
	}
	work.run()

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

// visit walks path: a lock is tracked, any other node is descended into,
// its children queued on work.
func (w *Watcher) visit(ctx context.Context, work *pool, path string, depth int, root bool) {
	if ctx.Err() != nil || path == systemTree || strings.HasPrefix(path, systemTree+"/") {
		return
	}
	names, stat, err := w.children(path)
	if err != nil {
		w.report(ctx, path, err, root)
		return
	}
	isLock, probed, err := w.isLock(path, names, stat)
	if err != nil {
		w.report(ctx, path, err, false)
		return
	}
	if isLock {
		if err := w.trackListed(ctx, path, names, stat, probed); err != nil {
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
		work.do(func() { w.visit(ctx, work, joinPath(path, n), depth+1, false) })
	}
}

// isLock decides whether a walked node is a lock. probed is the child it
// read to decide, if it read one, so that tracking need not read it again.
func (w *Watcher) isLock(path string, names []string, stat *zk.Stat) (isLock bool, probed []lockcore.Node, err error) {
	if stat.EphemeralOwner != 0 && len(names) == 0 {
		return lockcore.LooksLikeLockNode(path), nil, nil
	}
	if sem, ok := lockcore.SemaphorePart(path); ok && w.isSemaphore(sem) {
		return false, nil, nil
	}
	self := lockcore.Node{Name: baseName(path), Stat: *stat}
	switch c, probe := lockcore.Classify(self, names); c {
	case lockcore.IsALock:
		return true, nil, nil
	case lockcore.IfEphemeral:
		n, err := w.get(joinPath(path, probe))
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

// pool runs jobs on at most the watcher's Concurrency goroutines: the
// caller of run and helpers started as jobs come, each ending when no job
// is left. A job may queue more jobs but must not wait for them.
type pool struct {
	limit   int
	mu      sync.Mutex
	queue   []func()
	running int  // goroutines taking jobs, the caller of run among them
	started bool // run was called: do starts helpers
	pending sync.WaitGroup
}

func (w *Watcher) newPool() *pool { return &pool{limit: w.cfg.Concurrency} }

// do queues job; once run was called, it starts a helper for it if fewer
// than limit goroutines take jobs.
func (p *pool) do(job func()) {
	p.pending.Add(1)
	p.mu.Lock()
	p.queue = append(p.queue, job)
	start := p.started && p.running < p.limit
	if start {
		p.running++
	}
	p.mu.Unlock()
	if start {
		go p.work()
	}
}

// run does the queued jobs, and every job they queue, and returns when all
// are done. The caller takes jobs too, so that a single job, such as one
// changed lock, runs without a goroutine of its own.
func (p *pool) run() {
	p.mu.Lock()
	p.started = true
	helpers := min(len(p.queue), p.limit) - 1
	p.running += 1 + max(helpers, 0)
	p.mu.Unlock()
	for range helpers {
		go p.work()
	}
	p.work()
	p.pending.Wait()
}

// work takes jobs until none is left.
func (p *pool) work() {
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.running--
			p.mu.Unlock()
			return
		}
		job := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.mu.Unlock()
		job()
		p.pending.Done()
	}
}
