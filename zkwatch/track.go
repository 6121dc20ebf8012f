package zkwatch

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// trackedLocks is what was last read of each lock tracked. run's rounds
// read and store the locks (track, store, forget, analyzeAll) and start
// afresh after an expiry (beginSync); fillLoop stores what it read of
// their contenders (fill, storeOver); discover's loops look a path up in
// owner before they queue or watch it (foundLock, checkCandidates,
// watchWhole, relistDir) and mark the plain lock nodes a dump names;
// enrichLoop reads locks and owner to know which watches to keep
// (interest, focusInterest); the grace timer of a plain lock that went
// reads plain (recheckPlain).
type trackedLocks struct {
	locks map[string]*lockcore.Tree // lock path → what was last read of it
	owner map[string]string         // watched path of a lock → lock path
	// seen is what the last read of each lock saw, for the next read to
	// tell when its holders got the lock.
	seen map[string]seenLock
	// plain are the paths known to be plain ephemeral lock nodes, with
	// when their node was found gone (zero while it is there): while it
	// is gone they stay tracked, free, for PlainGrace.
	plain map[string]time.Time
}

func newTrackedLocks() trackedLocks {
	return trackedLocks{locks: map[string]*lockcore.Tree{}, owner: map[string]string{},
		seen: map[string]seenLock{}, plain: map[string]time.Time{}}
}

// track reads the lock at path (its node, children and recipe parts),
// arms their watches, and reports its analysis. Only nodes not read before
// are fetched.
func (w *Watcher) track(ctx context.Context, path string) error {
	w.mu.Lock()
	breaks := w.session.breaks
	w.mu.Unlock()
	names, stat, err := w.children(path)
	if errors.Is(err, zk.ErrNoNode) {
		w.mu.Lock()
		_, plain := w.tracked.plain[path]
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
// is w.session.breaks as it was before the listing.
func (w *Watcher) trackListed(ctx context.Context, path string, names []string, stat *zk.Stat, read []lockcore.Node, breaks int) error {
	w.mu.Lock()
	prev := w.tracked.locks[path]
	w.mu.Unlock()
	if prev == nil {
		prev = &lockcore.Tree{}
	}

	self := lockcore.Node{Name: lockcore.BaseName(path), Stat: *stat}
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
		known := byName(prev.Extra[extra], nil)
		if _, part := lockcore.SemaphorePart(extra); !part {
			// An application's registrations reuse their names (a
			// broker that restarts registers its id again, in a new
			// session): read them again every time.
			known = nil
		}
		next.SetExtra(extra, w.readNew(extra, kids, known))
	}
	for _, rel := range related {
		parts = append(parts, rel)
		n, err := w.related(rel)
		if err != nil {
			return err
		}
		next.SetRelated(rel, n)
	}
	next.ReadAt = time.Now()
	if self.Ephemeral() && len(names) == 0 {
		w.mu.Lock()
		w.tracked.plain[path] = time.Time{}
		w.mu.Unlock()
	}
	w.store(ctx, next, parts, breaks)
	return nil
}

// store records what was read of a lock (next, whose watched paths are
// parts) and reports its analysis; breaks is w.session.breaks as it was before
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
	if over != nil && w.tracked.locks[path] != over {
		w.mu.Unlock()
		return false
	}
	if l, ok := w.tracked.owner[path]; ok && l != path {
		// A part of another lock (a semaphore's queue or leases), found
		// as a lock while its semaphore could not be read or was not yet
		// whole: its nodes are that lock's, and its watch reads that lock
		// again, not this one, which would keep its first picture.
		w.mu.Unlock()
		return false
	}
	w.toFill.count(path, next)
	if s, ok := w.tracked.seen[path]; ok && !w.cfg.Once {
		// No break since before the last read's listing: the watch that
		// listing armed stayed armed until this read.
		next.Seen, next.Watched = s.sightings, s.breaks == w.session.breaks
	}
	first := w.tracked.locks[path] == nil
	if first {
		w.enrich.lockGen++
		w.discovery.dirs.locks[lockcore.ParentPath(path)]++
		select {
		case w.enrich.lockFound <- struct{}{}:
		default:
		}
	}
	w.tracked.locks[path] = next
	var parted []string // locks of their own that are parts of this one
	for _, p := range parts {
		if p != path && w.tracked.locks[p] != nil {
			parted = append(parted, p)
		}
		w.tracked.owner[p] = path
	}
	table := w.enrich.table
	w.mu.Unlock()
	for _, p := range parted {
		w.forgetPart(ctx, p)
	}
	seen := w.emitLock(ctx, *next, table)
	w.mu.Lock()
	current, owner := w.tracked.locks[path], w.tracked.owner[path]
	if current == next {
		w.tracked.seen[path] = seenLock{sightings: seen, breaks: breaks, table: table}
		// The sightings before this read served its analysis; those of
		// this one (w.tracked.seen) stand for them from now on (see analyzeAll),
		// so that each lock keeps one set and not two.
		next.Seen = nil
	}
	w.mu.Unlock()
	if current == nil && owner != "" && owner != path {
		// Forgotten as it was reported, as a part of a lock read
		// meanwhile (forgetPart): its gone must come after the report.
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: path})
		return true
	}
	if first {
		w.discovery.addLockDir(ctx, path)
	}
	return true
}

// refresh reads again the locks whose watched paths fired, and tracks the
// locks discovery found.
func (w *Watcher) refresh(ctx context.Context, dirty, found map[string]bool) {
	w.mu.Lock()
	locks := found
	var dirs []string
	for p := range dirty {
		if l, ok := w.tracked.owner[p]; ok {
			locks[l] = true
		} else if w.discovery.dirs.watched[p] != nil {
			dirs = append(dirs, p)
		}
	}
	for p := range found {
		w.discovery.dirs.tracking[p] = true
	}
	w.mu.Unlock()
	work := w.newPool()
	for p := range locks {
		work.do(func() {
			if err := w.track(ctx, p); err != nil {
				w.keepUnread(ctx, p, err)
				w.report(ctx, p, err, false)
			}
		})
	}
	for _, d := range dirs {
		work.do(func() { w.discovery.dirChanged(ctx, d) })
	}
	work.run()
	w.mu.Lock()
	w.discovery.dirs.tracking = map[string]bool{}
	w.mu.Unlock()
}

// keepUnread notes a lock whose read failed for the next reconnect or
// re-sync to read again, unless its ACL denied it (a reconnect changes
// nothing of that) or the watcher is ending.
func (w *Watcher) keepUnread(ctx context.Context, path string, err error) {
	if errors.Is(err, zk.ErrNoAuth) || ctx.Err() != nil {
		return
	}
	w.mu.Lock()
	w.next.unread[path] = true
	w.mu.Unlock()
}

// forgetPart drops the lock of its own at part, which a lock read since
// names as one of its parts, and reports it gone: one watched path reads
// one lock again (see refresh), so the part, shown on its own, would keep
// what it showed last.
func (w *Watcher) forgetPart(ctx context.Context, part string) {
	w.mu.Lock()
	_, tracked := w.tracked.locks[part]
	if tracked {
		w.toFill.count(part, nil)
		delete(w.tracked.locks, part)
		delete(w.tracked.seen, part)
		delete(w.tracked.plain, part)
		if w.discovery.dirs.locks[lockcore.ParentPath(part)]--; w.discovery.dirs.locks[lockcore.ParentPath(part)] <= 0 {
			delete(w.discovery.dirs.locks, lockcore.ParentPath(part))
		}
	}
	w.mu.Unlock()
	if tracked {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: part})
	}
}

// forget drops the locks at or below path, reporting them gone.
func (w *Watcher) forget(ctx context.Context, path string) {
	under := func(p string) bool { return p == path || strings.HasPrefix(p, path+"/") || path == "/" }
	var gone []string
	w.mu.Lock()
	for p := range w.tracked.plain {
		if under(p) {
			delete(w.tracked.plain, p)
		}
	}
	for p := range w.tracked.locks {
		if under(p) {
			w.toFill.count(p, nil)
			delete(w.tracked.locks, p)
			delete(w.tracked.seen, p)
			if w.discovery.dirs.locks[lockcore.ParentPath(p)]--; w.discovery.dirs.locks[lockcore.ParentPath(p)] <= 0 {
				delete(w.discovery.dirs.locks, lockcore.ParentPath(p))
			}
			gone = append(gone, p)
		}
	}
	for p, l := range w.tracked.owner {
		if under(l) {
			delete(w.tracked.owner, p)
		}
	}
	w.mu.Unlock()
	for _, p := range gone {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: p})
	}
}
