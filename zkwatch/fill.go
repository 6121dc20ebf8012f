package zkwatch

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// fillState is what the fill has to read (ReadLater). run's rounds and
// fillLoop count, as they store a lock, its contenders not read yet
// (count), which wakes fillLoop; fillLoop takes the locks to read
// from unread, and the callers of Unread read total. dumpOwners, which
// discover keeps from the first sync's dump (dumpRound), serve run's first
// listing of each lock (unreadFromDump) until that sync (finishSync); run
// starts it all afresh after an expiry (beginSync).
type fillState struct {
	unread     map[string]int // per lock, its contenders not read yet
	total      int            // all of them
	wake       chan struct{}  // wakes fillLoop
	dumpOwners *dumpOwners
}

// unreadFromDump adds to known, as nodes not read yet (lockcore
// Node.Pending), the contenders of the lock at path, a queue whose parts
// are all its children, that the first sync's dump named with their
// owners (ReadLater). Only names with a sequence number qualify.
func (w *Watcher) unreadFromDump(path string, self lockcore.Node, names []string, known map[string]lockcore.Node) {
	w.mu.Lock()
	owners := w.toFill.dumpOwners
	w.mu.Unlock()
	// A parent made since the dump (Curator deletes an empty one, and
	// makes it again) restarts its sequence numbers: a contender of the
	// new one could bear a name the dump gave an old one's.
	if owners == nil || self.Stat.Czxid >= owners.zxid {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, name := range names {
		p := lockcore.JoinPath(path, name)
		owner, ok := owners.of[p]
		if _, read := known[name]; read || !ok || !lockcore.ParseName(name).HasSeq {
			continue
		}
		delete(owners.of, p)
		known[name] = lockcore.Node{Name: name, Stat: zk.Stat{EphemeralOwner: owner}, Pending: true}
	}
}

// reportBeforeRead reports a known lock whose listing names contenders
// not read before (ReadLater) at once, from the listing, those contenders
// not read yet and of no known owner, so that a join is shown a round
// trip sooner; the caller then reads them and reports the lock again.
// The lock is a queue whose parts are all its children, as for
// unreadFromDump.
func (w *Watcher) reportBeforeRead(ctx context.Context, path string, self lockcore.Node, names []string, known map[string]lockcore.Node, breaks int) {
	if !w.cfg.ReadLater || w.cfg.Once {
		return
	}
	children := make([]lockcore.Node, 0, len(names))
	joined := false
	for _, name := range names {
		n, ok := known[name]
		if !ok {
			if !lockcore.ParseName(name).HasSeq {
				return
			}
			n, joined = lockcore.Node{Name: name, Pending: true}, true
		}
		children = append(children, n)
	}
	if joined {
		w.store(ctx, &lockcore.Tree{Path: path, Self: self, Children: children, ReadAt: time.Now()}, nil, breaks)
	}
}

// count books what is stored of the lock at path, next (nil when it is
// forgotten), in the count of contenders not read yet, and wakes the loop
// that reads them. The watcher's mu is held.
func (f *fillState) count(path string, next *lockcore.Tree) {
	n := 0
	if next != nil {
		for _, c := range next.Children {
			// One of no known owner is being read by its lock's track
			// (reportBeforeRead), not left for the fill loop.
			if c.Pending && c.Stat.EphemeralOwner != 0 {
				n++
			}
		}
	}
	f.total += n - f.unread[path]
	if n == 0 {
		delete(f.unread, path)
		return
	}
	f.unread[path] = n
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Unread returns how many contenders of the locks reported are listed but
// not read yet (ReadLater).
func (w *Watcher) Unread() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.toFill.total
}

// fillLoop reads the contenders not read yet, once the first sync is
// reported, at the walk's rate: first the holders of every lock (a lock's
// oldest hold and the long-held check need them), then the waiters; the
// focused lock goes before the others whenever it has any. Each lock is
// reported again once its nodes are read.
func (w *Watcher) fillLoop(ctx context.Context) {
	// The first sync's listings go first: they are the picture.
	select {
	case <-ctx.Done():
		return
	case <-w.syncs.first:
	}
	lim := newLimiter(w.discovery.walkRate(), 1)
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.toFill.wake:
		}
		for ctx.Err() == nil {
			before := w.Unread()
			if before == 0 {
				break
			}
			w.fillPass(ctx, lim, true)
			w.fillPass(ctx, lim, false)
			if w.Unread() >= before {
				// Nothing could be read (a lost connection): wait for the
				// next store or a second.
				select {
				case <-ctx.Done():
					return
				case <-w.toFill.wake:
				case <-time.After(time.Second):
				}
			}
		}
	}
}

// fillPass reads, lock by lock, the unread holders (holders) or every
// unread contender of the locks that have some.
func (w *Watcher) fillPass(ctx context.Context, lim *limiter, holders bool) {
	w.mu.Lock()
	paths := slices.Sorted(maps.Keys(w.toFill.unread))
	w.mu.Unlock()
	work := w.newPool()
	for _, p := range paths {
		work.do(func() {
			if ctx.Err() != nil {
				return
			}
			w.mu.Lock()
			focus := w.enrich.focus
			_, focusUnread := w.toFill.unread[focus]
			w.mu.Unlock()
			if focusUnread && focus != p {
				w.fill(ctx, lim, focus, false)
			}
			w.fill(ctx, lim, p, holders)
		})
	}
	work.run()
}

// fill reads the unread contenders of the lock at path (only its holders,
// if holders) and reports the lock again, unless it was read anew
// meanwhile. A contender found gone is left out, as a new listing would.
func (w *Watcher) fill(ctx context.Context, lim *limiter, path string, holders bool) {
	w.mu.Lock()
	cur := w.tracked.locks[path]
	seen := w.tracked.seen[path]
	var next lockcore.Tree
	if cur != nil {
		next = *cur // under the lock: store clears what it stored's Seen
	}
	w.mu.Unlock()
	if cur == nil || seen.sightings == nil {
		// Not reported yet: the next pass reads it.
		return
	}
	holding := map[string]bool{}
	if seen.sightings != nil {
		for _, s := range seen.sightings.Nodes {
			holding[s.Path] = s.Holding()
		}
	}
	nodes := slices.Clone(next.Children)
	gone := make([]bool, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		p := lockcore.JoinPath(path, n.Name)
		if !n.Pending || n.Stat.EphemeralOwner == 0 || holders && !holding[p] {
			continue
		}
		if !lim.wait(ctx) {
			return
		}
		w.sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-w.sem }()
			read, err := w.read(p, n.Name)
			switch {
			case errors.Is(err, zk.ErrNoNode):
				gone[i] = true
			case err == nil:
				nodes[i] = read
			}
		})
	}
	wg.Wait()
	next.Children = nodes[:0]
	for i, n := range nodes {
		if !gone[i] {
			next.Children = append(next.Children, n)
		}
	}
	next.ReadAt = time.Now()
	w.storeOver(ctx, &next, nil, seen.breaks, cur)
}
