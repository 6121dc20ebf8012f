package zkwatch

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// byName indexes nodes of one directory read before by their names.
func byName(before, also []lockcore.Node) map[string]lockcore.Node {
	known := make(map[string]lockcore.Node, len(before)+len(also))
	for _, n := range before {
		known[n.Name] = n
	}
	for _, n := range also {
		known[n.Name] = n
	}
	return known
}

// partChildren lists a recipe part's children; a part that does not exist
// yet gets an exists watch, which fires when it is created.
func (w *Watcher) partChildren(path string) ([]string, error) {
	names, _, err := w.children(path)
	if !errors.Is(err, zk.ErrNoNode) {
		return names, err
	}
	if w.cfg.Once {
		return nil, nil
	}
	exists, armed, err := w.existsW(path)
	if err != nil || !armed {
		return nil, err
	}
	if exists {
		// Created in between: the watch fires for its next change; read
		// it now.
		names, _, err = w.children(path)
	}
	return names, err
}

// readNew returns dir's named children, reusing the nodes in known (by
// name) and reading the others concurrently: a request slot is taken
// before each read's goroutine starts, so that no more than Concurrency
// of them exist across the watcher, and the last read is the caller's
// own. Children that vanish are left out. A node keeps the name the
// server listed; a node read before is not read again, as recipes never
// change a contender's data.
func (w *Watcher) readNew(dir string, names []string, known map[string]lockcore.Node) []lockcore.Node {
	nodes := make([]lockcore.Node, len(names))
	ok := make([]bool, len(names))
	var missing []int
	for i, name := range names {
		if n, seen := known[name]; seen {
			nodes[i], ok[i] = n, true
		} else {
			missing = append(missing, i)
		}
	}
	readOne := func(i int) {
		if n, err := w.read(lockcore.JoinPath(dir, names[i]), names[i]); err == nil {
			nodes[i], ok[i] = n, true
		}
		<-w.sem
	}
	var wg sync.WaitGroup
	for k, i := range missing {
		w.sem <- struct{}{}
		if k == len(missing)-1 {
			// The last read, often the only one, is the caller's.
			readOne(i)
			break
		}
		wg.Add(1)
		go func() { defer wg.Done(); readOne(i) }()
	}
	wg.Wait()
	out := nodes[:0]
	for i, n := range nodes {
		if ok[i] {
			out = append(out, n)
		}
	}
	return out
}

// emitLock analyses and reports a lock, and returns what the analysis saw.
func (w *Watcher) emitLock(ctx context.Context, t lockcore.Tree, table *lockcore.WatchTable) *lockcore.Sightings {
	l := lockcore.Analyze(t, table, w.cfg.Analysis)
	if w.cfg.Once && slices.ContainsFunc(l.Participants, lockcore.Participant.WatchMaybeUnset) {
		w.mu.Lock()
		w.enrich.unset = true
		w.mu.Unlock()
	}
	w.emit(ctx, Event{Kind: EventLock, At: t.ReadAt, Path: t.Path, Lock: &l})
	return l.Sightings()
}

// analyzeAll reports again, analysed against the current watch table from
// what was last read, every lock whose analysis the new table can change:
// on a busy ensemble the table's zxid moves on with every read of it, and
// most locks' watches stay the same.
func (w *Watcher) analyzeAll(ctx context.Context) {
	type job struct {
		tree lockcore.Tree
		next *lockcore.Tree
	}
	w.mu.Lock()
	table := w.enrich.table
	var jobs []job
	for p, t := range w.tracked.locks {
		s, ok := w.tracked.seen[p]
		if ok && table.SameFor(s.table, *t) {
			continue
		}
		tree := *t
		if ok {
			// What this read's analysis saw: each holder keeps the hold
			// it found, and nobody waiting then holds now.
			tree.Seen = s.sightings
		}
		jobs = append(jobs, job{tree, t})
	}
	w.mu.Unlock()
	for _, j := range jobs {
		w.emitLock(ctx, j.tree, table)
		w.mu.Lock()
		if s, ok := w.tracked.seen[j.tree.Path]; ok && w.tracked.locks[j.tree.Path] == j.next {
			s.table = table
			w.tracked.seen[j.tree.Path] = s
		}
		w.mu.Unlock()
	}
}

// judgeOnce, at the end of a Once walk, reads the servers' watch table
// twice more when some waiter was absent from WatchConfig.Watches while
// its node may be newer than its watch, and analyses the locks again
// against the second: Watches was read before the walk, and a client sets
// its watch after it creates its node and lists the queue. Every node the
// walk read was there when the first of the two was read, so each
// waiter's client had that read's time to set its watch, and the second
// judges them all. A table that cannot be read leaves them unknown.
func (w *Watcher) judgeOnce(ctx context.Context) {
	w.mu.Lock()
	if !w.enrich.unset || w.enrich.table == nil {
		w.mu.Unlock()
		return
	}
	var last int64
	q := WatchQuery{Mode: w.cfg.WatchMode, Budget: w.cfg.WatchBudget, Costs: w.costs}
	for p, t := range w.tracked.locks {
		last = max(last, t.LastZxid())
		q.Locks = append(q.Locks, p)
		for part := range t.Extra {
			q.Locks = append(q.Locks, part)
		}
	}
	w.mu.Unlock()
	var table *lockcore.WatchTable
	for range 2 {
		var err error
		if table, err = w.conn.ReadWatches(ctx, q); err != nil {
			return
		}
	}
	w.mu.Lock()
	w.enrich.table = table.Since(last)
	w.mu.Unlock()
	w.analyzeAll(ctx)
}
