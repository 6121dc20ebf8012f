package zkwatch

import (
	"errors"
	"sort"
	"sync"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// watchSet is what the watcher has asked the servers to tell it of. The
// reads that arm a watch (children, existsW) mark its path armed: run's
// rounds as they track locks, discover's loops as they list the
// directories they watch. go-zookeeper's event loop moves a path that
// fired from armed to fired (onWatchEvent), and run takes fired as its
// next round starts; a new session forgets them all (run's beginSync).
// Discovery and Watched count armed for their callers, discover's loops
// among them.
type watchSet struct {
	armed map[string]bool // paths with a watch pending
	fired map[string]bool // watched paths that fired, not read again yet
}

func newWatchSet() watchSet {
	return watchSet{armed: map[string]bool{}, fired: map[string]bool{}}
}

// onWatchEvent takes a watch notification from the connection: a path the
// watcher armed is marked for reading; an expiry asks for a re-sync.
func (w *Watcher) onWatchEvent(ev zk.Event) {
	if ev.Type == zk.EventNotWatching {
		if errors.Is(ev.Err, zk.ErrSessionExpired) {
			w.mu.Lock()
			w.next.resync = true
			w.mu.Unlock()
			w.poke()
		}
		return
	}
	path, ok := w.conn.rel(ev.Path)
	if !ok {
		return
	}
	w.mu.Lock()
	armed := w.watches.armed[path]
	if armed {
		delete(w.watches.armed, path)
		w.watches.fired[path] = true
	}
	w.mu.Unlock()
	if armed {
		w.poke()
	}
}

// claimWatch reports whether a read of path should arm a watch, and if
// so marks it armed: none in Once mode, and none while one is pending
// (re-arming would only duplicate the notification).
func (w *Watcher) claimWatch(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfg.Once || w.watches.armed[path] {
		return false
	}
	w.watches.armed[path] = true
	return true
}

// disarm forgets the watch on path a request failed to arm, so that the
// next read of path arms it again.
func (w *Watcher) disarm(path string) {
	w.mu.Lock()
	delete(w.watches.armed, path)
	w.mu.Unlock()
}

// children lists path's children, arming a children watch unless one is
// already pending: re-arming would only duplicate the notification.
func (w *Watcher) children(path string) ([]string, *zk.Stat, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	if !w.claimWatch(path) {
		return w.list(path)
	}
	r, err := guard(w, func() (listing, error) {
		names, stat, _, err := w.conn.zk.ChildrenW(w.conn.abs(path))
		return listing{names, stat}, err
	})
	names, stat := r.names, r.stat
	if err != nil {
		w.disarm(path)
		return nil, nil, err
	}
	return names, stat, nil
}

// get reads one node, keeping at most lockcore.DataLimit bytes of data.
func (w *Watcher) get(path string) (lockcore.Node, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	return w.read(path, lockcore.BaseName(path))
}

// read reads the node at path, named name, without taking a request slot:
// the caller holds one.
func (w *Watcher) read(path, name string) (lockcore.Node, error) {
	return guard(w, func() (lockcore.Node, error) { return w.conn.getNode(path, name) })
}

// listing is a children request's answer.
type listing struct {
	names []string
	stat  *zk.Stat
}

// guard runs a request; a one-shot watcher gives up on it when its
// requests must stop: go-zookeeper holds a request made while
// disconnected until it reconnects, which a one-shot walk whose server
// died would wait for forever. A live watcher waits for the reconnect.
func guard[T any](w *Watcher, f func() (T, error)) (T, error) {
	if !w.cfg.Once {
		return f()
	}
	return call(w.reqCtx, f)
}

// existsW arms an exists watch on path unless a watch is pending there,
// and reports whether the node exists and whether the watch was armed now.
func (w *Watcher) existsW(path string) (exists, armed bool, err error) {
	w.mu.Lock()
	arm := !w.watches.armed[path]
	w.watches.armed[path] = true
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
		w.disarm(path)
		return false, false, err
	}
	return exists, true, nil
}

// Watched returns the paths the watcher holds a watch on, sorted: lock
// parents, semaphore parts, plain lock nodes, parts not created yet, and
// the directories watched for new locks.
func (w *Watcher) Watched() []string {
	w.mu.Lock()
	out := make([]string, 0, len(w.watches.armed))
	for p := range w.watches.armed {
		out = append(out, p)
	}
	w.mu.Unlock()
	sort.Strings(out)
	return out
}

// list lists path's children without a watch.
func (w *Watcher) list(path string) ([]string, *zk.Stat, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	r, err := guard(w, func() (listing, error) {
		names, stat, err := w.conn.zk.Children(w.conn.abs(path))
		return listing{names, stat}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return r.names, r.stat, nil
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
