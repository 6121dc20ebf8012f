package zkwatch

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// track reads the lock at path (its node, children and recipe parts),
// arms their watches, and reports its analysis. Only nodes not read before
// are fetched.
func (w *Watcher) track(ctx context.Context, path string) error {
	w.mu.Lock()
	breaks := w.breaks
	w.mu.Unlock()
	names, stat, err := w.children(path)
	if errors.Is(err, zk.ErrNoNode) {
		w.mu.Lock()
		_, plain := w.plain[path]
		w.mu.Unlock()
		if plain && !w.cfg.Once {
			return w.trackAbsent(ctx, path, breaks)
		}
		w.forget(ctx, path)
		return nil
	}
	if err != nil {
		return err
	}
	return w.trackListed(ctx, path, names, stat, nil, breaks)
}

// seenLock is what the last read of a lock saw, and how many connection
// losses there had been before its listing.
type seenLock struct {
	sightings *lockcore.Sightings
	breaks    int
	// table is the watch table the lock was last analysed against.
	table *lockcore.WatchTable
}

// trackListed is track once path's children have been listed (and its
// watch armed), so that the walk, which lists a node to tell whether it is
// a lock, does not list it again. read are children already read; breaks
// is w.breaks as it was before the listing.
func (w *Watcher) trackListed(ctx context.Context, path string, names []string, stat *zk.Stat, read []lockcore.Node, breaks int) error {
	w.mu.Lock()
	prev := w.locks[path]
	w.mu.Unlock()
	if prev == nil {
		prev = &lockcore.Tree{}
	}

	self := lockcore.Node{Name: baseName(path), Stat: *stat}
	if stat.DataLength > 0 {
		var err error
		if self, err = w.get(path); err != nil {
			return err
		}
	}
	next := &lockcore.Tree{Path: path, Self: self}
	extras, related := lockcore.ExtraPaths(path, self, names), lockcore.RelatedPaths(path, self, names)
	known := byName(prev.Children, read)
	// Only a queue's own children may be reported before they are read:
	// a recipe that keeps parts elsewhere, or an application's lock read
	// with its related nodes, is read whole.
	if queueOnly := len(extras) == 0 && len(related) == 0; queueOnly && prev.Path == "" {
		w.unreadFromDump(path, self, names, known)
	} else if queueOnly {
		w.reportBeforeRead(ctx, path, self, names, known, breaks)
	}
	next.Children = w.readNew(path, names, known)
	parts := []string{path}
	for _, extra := range extras {
		parts = append(parts, extra)
		kids, err := w.partChildren(extra)
		if err != nil {
			return err
		}
		if next.Extra == nil {
			next.Extra = map[string][]lockcore.Node{}
		}
		known := byName(prev.Extra[extra], nil)
		if _, part := lockcore.SemaphorePart(extra); !part {
			// An application's registrations reuse their names (a
			// broker that restarts registers its id again, in a new
			// session): read them again every time.
			known = nil
		}
		next.Extra[extra] = w.readNew(extra, kids, known)
	}
	for _, rel := range related {
		parts = append(parts, rel)
		n, err := w.related(rel)
		if err != nil {
			return err
		}
		if next.Related == nil {
			next.Related = map[string]lockcore.Node{}
		}
		next.Related[rel] = n
	}
	next.ReadAt = time.Now()
	if self.Ephemeral() && len(names) == 0 {
		w.mu.Lock()
		w.plain[path] = time.Time{}
		w.mu.Unlock()
	}
	w.store(ctx, next, parts, breaks)
	return nil
}

// store records what was read of a lock (next, whose watched paths are
// parts) and reports its analysis; breaks is w.breaks as it was before
// the read's listing.
func (w *Watcher) store(ctx context.Context, next *lockcore.Tree, parts []string, breaks int) {
	w.storeOver(ctx, next, parts, breaks, nil)
}

// storeOver is store, unless over is not nil and is no longer what was
// last read of the lock (a newer read was stored meanwhile): then it
// stores nothing and returns false.
func (w *Watcher) storeOver(ctx context.Context, next *lockcore.Tree, parts []string, breaks int, over *lockcore.Tree) bool {
	path := next.Path
	w.mu.Lock()
	if over != nil && w.locks[path] != over {
		w.mu.Unlock()
		return false
	}
	w.countUnread(path, next)
	if s, ok := w.seen[path]; ok && !w.cfg.Once {
		// No break since before the last read's listing: the watch that
		// listing armed stayed armed until this read.
		next.Seen, next.Watched = s.sightings, s.breaks == w.breaks
	}
	first := w.locks[path] == nil
	if first {
		w.lockGen++
		w.dirLocks[dirOf(path)]++
		select {
		case w.lockFound <- struct{}{}:
		default:
		}
	}
	w.locks[path] = next
	for _, p := range parts {
		w.owner[p] = path
	}
	table := w.table
	w.mu.Unlock()
	seen := w.emitLock(ctx, *next, table)
	w.mu.Lock()
	if w.locks[path] == next {
		w.seen[path] = seenLock{sightings: seen, breaks: breaks, table: table}
		// The sightings before this read served its analysis; those of
		// this one (w.seen) stand for them from now on (see analyzeAll),
		// so that each lock keeps one set and not two.
		next.Seen = nil
	}
	w.mu.Unlock()
	if first {
		w.addLockDir(ctx, path)
	}
	return true
}

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
		if n, err := w.read(joinPath(dir, names[i]), names[i]); err == nil {
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
	table := w.table
	var jobs []job
	for p, t := range w.locks {
		s, ok := w.seen[p]
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
		if s, ok := w.seen[j.tree.Path]; ok && w.locks[j.tree.Path] == j.next {
			s.table = table
			w.seen[j.tree.Path] = s
		}
		w.mu.Unlock()
	}
}

// refresh reads again the locks whose watched paths fired, and tracks the
// locks discovery found.
func (w *Watcher) refresh(ctx context.Context, dirty, found map[string]bool) {
	w.mu.Lock()
	locks := found
	var dirs []string
	for p := range dirty {
		if l, ok := w.owner[p]; ok {
			locks[l] = true
		} else if w.dirs[p] != nil {
			dirs = append(dirs, p)
		}
	}
	for p := range found {
		w.tracking[p] = true
	}
	w.mu.Unlock()
	work := w.newPool()
	for p := range locks {
		work.do(func() {
			if err := w.track(ctx, p); err != nil {
				w.report(ctx, p, err, false)
			}
		})
	}
	for _, d := range dirs {
		work.do(func() { w.dirChanged(ctx, d) })
	}
	work.run()
	w.mu.Lock()
	w.tracking = map[string]bool{}
	w.mu.Unlock()
}

// forget drops the locks at or below path, reporting them gone.
func (w *Watcher) forget(ctx context.Context, path string) {
	under := func(p string) bool { return p == path || strings.HasPrefix(p, path+"/") || path == "/" }
	var gone []string
	w.mu.Lock()
	for p := range w.plain {
		if under(p) {
			delete(w.plain, p)
		}
	}
	for p := range w.locks {
		if under(p) {
			w.countUnread(p, nil)
			delete(w.locks, p)
			delete(w.seen, p)
			if w.dirLocks[dirOf(p)]--; w.dirLocks[dirOf(p)] <= 0 {
				delete(w.dirLocks, dirOf(p))
			}
			gone = append(gone, p)
		}
	}
	for p, l := range w.owner {
		if under(l) {
			delete(w.owner, p)
		}
	}
	w.mu.Unlock()
	for _, p := range gone {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: p})
	}
}
