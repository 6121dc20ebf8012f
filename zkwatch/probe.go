package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

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
		active, _, err := w.list(joinPath(path, "active"))
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
		return w.isLockNode(path)
	}
	if sem, ok := lockcore.SemaphorePart(path); ok && w.isSemaphore(sem) {
		return false, nil, nil
	}
	self := lockcore.Node{Name: baseName(path), Stat: *stat}
	switch c, probe := book.Classify(path, self, names); c {
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

// isSemaphore reports whether sem is a semaphore whose part the walk has
// found, so that the part is not shown as a lock of its own.
func (w *Watcher) isSemaphore(sem string) bool {
	self, err := w.get(sem)
	if err != nil {
		return false
	}
	names, _, err := w.list(sem)
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
