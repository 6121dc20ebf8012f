package zkwatch

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
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

func (w *Watcher) dirWatchMax() int {
	if w.cfg.DirWatchMax > 0 {
		return w.cfg.DirWatchMax
	}
	return defaultDirWatchMax
}

// dirOf is the directory holding a lock.
func dirOf(lock string) string {
	// The paths here are clean and absolute, as the server gives them:
	// path.Dir's cleaning would only cost time over a dump's million
	// nodes.
	i := strings.LastIndexByte(lock, '/')
	if i <= 0 {
		return "/"
	}
	return lock[:i]
}

// addLockDir starts watching the directory holding a lock found for the
// first time, unless it is watched already, above the roots, or the
// watcher sets no watches.
func (w *Watcher) addLockDir(ctx context.Context, lock string) {
	d := dirOf(lock)
	if w.cfg.Once || d == lock || !w.underRoots(d) {
		return
	}
	w.mu.Lock()
	_, watched := w.dirs.watched[d]
	_, isLock := w.tracked.owner[d]
	if !watched && !isLock {
		w.dirs.watched[d] = &lockDir{kind: dirOfLocks}
	}
	w.mu.Unlock()
	if !watched && !isLock {
		w.relistDir(ctx, d)
	}
}

// dirChanged lists a watched directory again after its watch fired (or
// its poll came) and looks at the children new since the last listing.
func (w *Watcher) dirChanged(ctx context.Context, d string) {
	fresh := w.relistDir(ctx, d)
	if len(fresh) == 0 {
		return
	}
	w.mu.Lock()
	ld := w.dirs.watched[d]
	w.mu.Unlock()
	if ld == nil {
		return
	}
	work := w.newPool()
	for _, c := range fresh {
		switch ld.kind {
		case dirOfTree:
			work.do(func() { w.watchTree(ctx, work, c) })
		default:
			work.do(func() { w.checkNewChild(ctx, c) })
		}
	}
	work.run()
}

// relistDir lists d (arming its watch again unless it is polled or no
// longer worth watching), reports it as found when it has become a lock,
// and returns its children not listed before and not known as locks.
func (w *Watcher) relistDir(ctx context.Context, d string) []string {
	w.mu.Lock()
	ld := w.dirs.watched[d]
	var kind dirKind
	polled, first := false, true
	if ld != nil {
		kind, polled, first = ld.kind, ld.polled, ld.known == nil
	}
	// A directory of locks whose locks have all gone is not watched again.
	orphan := ld != nil && kind == dirOfLocks && w.dirs.locks[d] == 0
	if orphan {
		w.dirs.drop(d)
	}
	w.mu.Unlock()
	if ld == nil || orphan {
		return nil
	}
	names, stat, err := w.listDir(d, kind, polled, first)
	if errors.Is(err, zk.ErrNoNode) {
		w.dropDir(d)
		w.mu.Lock()
		if parent := w.dirs.watched[path.Dir(d)]; parent != nil {
			// Made again, it is new.
			delete(parent.known, lockcore.BaseName(d))
		}
		w.mu.Unlock()
		return nil
	}
	if err != nil {
		w.report(ctx, d, err, false)
		return nil
	}
	if kind != dirOfLocks {
		isLock, _, err := w.isLock(d, names, stat)
		switch {
		case err == nil && isLock:
			w.dropDir(d)
			w.foundLock(d)
			return nil
		case kind == dirNew && len(names) > 0, stat.EphemeralOwner != 0:
			// Its first child made it something other than a lock, or it
			// is an ephemeral node, which never has children.
			w.dropDir(d)
			return nil
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dirs.watched[d] != ld {
		return nil
	}
	if first && kind == dirOfLocks && len(names) > w.dirWatchMax() {
		ld.polled = true
	}
	if ld.polled {
		ld.nextPoll = time.Now().Add(max(dirPollEvery, time.Duration(len(names))*time.Second/dirPollRate))
	}
	if kind == dirNew {
		ld.known = map[string]bool{}
		return nil
	}
	// known keeps the children looked at and not locks; a lock is left out,
	// so that one deleted and made again under the same name between two
	// listings is looked at again. The children a directory of locks has
	// when it is first listed are left to the dump and the walk that found
	// its lock: looking at each would cost a read per sibling, unpaced.
	var fresh []string
	known := make(map[string]bool, len(names))
	for _, n := range names {
		c := lockcore.JoinPath(d, n)
		if _, tracked := w.tracked.owner[c]; tracked || w.next.found[c] || w.dirs.tracking[c] {
			continue
		}
		if !ld.known[n] && w.dirs.watched[c] == nil && !(first && kind == dirOfLocks) {
			fresh = append(fresh, c)
		}
		known[n] = true
	}
	ld.known = known
	return fresh
}

// listDir lists a watched directory, arming its watch unless it is
// polled: a directory of locks is first listed without one, to count its
// children, and a new child is armed again only while it is still empty.
func (w *Watcher) listDir(d string, kind dirKind, polled, first bool) ([]string, *zk.Stat, error) {
	switch {
	case polled:
		return w.list(d)
	case kind == dirOfLocks && first, kind == dirNew && !first:
		names, stat, err := w.list(d)
		if err != nil || kind == dirOfLocks && len(names) > w.dirWatchMax() || kind == dirNew && len(names) > 0 {
			return names, stat, err
		}
	}
	return w.children(d)
}

// checkNewChild looks at a new child of a directory of locks: a lock is
// found; an empty persistent node, a lock parent before its first
// contender, is watched until its first child comes.
func (w *Watcher) checkNewChild(ctx context.Context, c string) {
	names, stat, err := w.list(c)
	if err != nil {
		w.report(ctx, c, err, false)
		return
	}
	if isLock, _, err := w.isLock(c, names, stat); err != nil || isLock {
		if isLock {
			w.foundLock(c)
		}
		return
	}
	if len(names) > 0 || stat.EphemeralOwner != 0 {
		return
	}
	w.mu.Lock()
	_, watched := w.dirs.watched[c]
	add := !watched && w.dirs.newDirs < newDirMax
	if add {
		w.dirs.watched[c] = &lockDir{kind: dirNew}
		w.dirs.newDirs++
	}
	w.mu.Unlock()
	if add {
		w.relistDir(ctx, c)
	}
}

// dropDir stops watching d: its watch, if armed, fires once more and is
// not armed again.
func (w *Watcher) dropDir(d string) {
	w.mu.Lock()
	w.dirs.drop(d)
	w.mu.Unlock()
}

// drop forgets the directory d; the watcher's mu is held.
func (dw *dirWatches) drop(d string) {
	ld := dw.watched[d]
	if ld == nil {
		return
	}
	switch ld.kind {
	case dirNew:
		dw.newDirs--
	case dirOfTree:
		dw.treeDirs--
	}
	delete(dw.watched, d)
}
