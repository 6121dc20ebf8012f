package zkwatch

import (
	"context"
	"sort"
	"time"

	"github.com/zklocks/zklocks/zkwatch/tick"
)

// Directory watches: how a new lock is seen at once rather than at the
// next dump or walk. A directory that holds a lock parent (a directory of
// locks: /locks, a Curator namespace, /app/locks/group-7) gets a children
// watch, so a new sibling lock is seen as soon as it is created; a tree
// small enough to watch whole gets one on every node. A directory with too
// many children to list at every change is polled instead.
const (
	// defaultDirWatchMax is the most children a directory of locks may
	// have for it to be watched: every change to it costs a listing of
	// them all.
	defaultDirWatchMax = 1000
	// newDirMax bounds the watches on new, still empty children of
	// directories of locks, held until their first child says whether
	// they are locks.
	newDirMax = 500
	// wholeTreeMax is the most nodes a tree may have for every one of them
	// to be watched; past it, the nodes added are found as in a big tree.
	wholeTreeMax = 2000
	// dirPollEvery is the least gap between two listings of a polled
	// directory; a bigger one is listed no faster than dirPollRate
	// children a second.
	dirPollEvery = 5 * time.Second
	dirPollRate  = 2000
	// polledNamed is how many polled directories Discovery names.
	polledNamed = 10
)

// dirWatches are the directories watched (or polled) for new locks.
// discover's loops add and list them (watchWhole, checkNewChild, and
// dirChanged from pollDirs) and count them for Discovery (describe); run's
// rounds list one whose watch fired (refresh, dirChanged), add the
// directory of a lock first stored and count the locks in each (store,
// addLockDir, forget), and start afresh after an expiry (beginSync).
type dirWatches struct {
	watched map[string]*lockDir
	// locks counts the locks tracked in each directory, and tracking are
	// the locks the current round tracks for the first time.
	locks             map[string]int
	tracking          map[string]bool
	treeDirs, newDirs int  // dirs of kind dirOfTree and dirNew
	wholeTree         bool // the tree was small enough to watch whole
	treeFull          bool // it has grown past wholeTreeMax since
}

func newDirWatches() dirWatches {
	return dirWatches{watched: map[string]*lockDir{}, locks: map[string]int{}, tracking: map[string]bool{}}
}

// dirKind says why a directory is watched.
type dirKind int

const (
	// dirOfLocks holds lock parents: its new children are checked for
	// locks, one level down.
	dirOfLocks dirKind = iota
	// dirOfTree is any node of a tree watched whole: new children are
	// watched in turn, all the way down.
	dirOfTree
	// dirNew is a new, empty child of a directory of locks: a lock parent
	// about to get its first contender, until its first child says.
	dirNew
)

// lockDir is a directory watched (or polled) for new locks.
type lockDir struct {
	kind     dirKind
	polled   bool            // too many children: listed on a period instead
	known    map[string]bool // its children as last listed; nil before the first listing
	nextPoll time.Time
}

func (d *discoverer) dirWatchMax() int {
	if d.w.cfg.DirWatchMax > 0 {
		return d.w.cfg.DirWatchMax
	}
	return defaultDirWatchMax
}

// drop forgets the directory dir; the watcher's mu is held.
func (dw *dirWatches) drop(dir string) {
	ld := dw.watched[dir]
	if ld == nil {
		return
	}
	switch ld.kind {
	case dirNew:
		dw.newDirs--
	case dirOfTree:
		dw.treeDirs--
	}
	delete(dw.watched, dir)
}

// pollDirs lists the polled directories when each is due, until ctx ends.
func (d *discoverer) pollDirs(ctx context.Context) {
	tick.Every(ctx, dirPollEvery/10, func() {
		now := time.Now()
		var due []string
		d.w.mu.Lock()
		for dir, ld := range d.dirs.watched {
			if ld.polled && !now.Before(ld.nextPoll) {
				due = append(due, dir)
			}
		}
		d.w.mu.Unlock()
		for _, dir := range due {
			d.dirChanged(ctx, dir)
		}
	})
}

// describe fills in what r says of the directories watched and polled.
// The watcher's mu is held.
func (dw *dirWatches) describe(r *Discovery) {
	r.PolledDirs = nil
	r.WatchedDirs, r.PolledCount = 0, 0
	for p, ld := range dw.watched {
		if ld.polled {
			r.PolledCount++
			r.PolledDirs = append(r.PolledDirs, p)
		} else if ld.kind != dirNew {
			r.WatchedDirs++
		}
	}
	sort.Strings(r.PolledDirs)
	if len(r.PolledDirs) > polledNamed {
		r.PolledDirs = r.PolledDirs[:polledNamed]
	}
	r.WholeTree, r.TreeFull = dw.wholeTree, dw.treeFull
}

// A tree the first walk found small enough is watched whole: a children
// watch on every directory under the roots, so that a lock made anywhere
// is seen at once, up to wholeTreeMax nodes.

// watchWhole watches every node under the roots, for a tree the first
// walk found small enough.
func (d *discoverer) watchWhole(ctx context.Context) {
	d.w.mu.Lock()
	d.dirs.wholeTree = true
	d.w.mu.Unlock()
	work := d.w.newPool()
	for _, root := range d.w.cfg.Roots {
		work.do(func() { d.watchTree(ctx, work, root) })
	}
	work.run()
}

// watchTree watches p and, unless it is a lock (then found), every node
// below it, queueing them on work.
func (d *discoverer) watchTree(ctx context.Context, work *pool, p string) {
	if ctx.Err() != nil || p == systemTree || !d.underRoots(p) {
		return
	}
	d.w.mu.Lock()
	_, tracked := d.w.tracked.owner[p]
	_, watched := d.dirs.watched[p]
	full := d.dirs.treeDirs >= wholeTreeMax
	if !tracked && !watched && !full {
		d.dirs.watched[p] = &lockDir{kind: dirOfTree}
		d.dirs.treeDirs++
	}
	d.dirs.treeFull = d.dirs.treeFull || full
	d.w.mu.Unlock()
	if tracked || watched || full {
		return
	}
	for _, c := range d.relistDir(ctx, p) {
		work.do(func() { d.watchTree(ctx, work, c) })
	}
}
