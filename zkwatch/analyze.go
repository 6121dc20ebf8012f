package zkwatch

import (
	"context"

	"github.com/zklocks/zklocks/lockcore"
)

// emitLock analyses and reports a lock, and returns what the analysis saw.
func (w *Watcher) emitLock(ctx context.Context, t lockcore.Tree, table *lockcore.WatchTable) *lockcore.Sightings {
	l := lockcore.Analyze(t, table, w.cfg.Analysis)
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
