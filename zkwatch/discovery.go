package zkwatch

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// beginSync forgets what was read, after a session expiry or at the start,
// and starts discovery afresh; the locks not found again are reported gone
// at the next sync marker.
func (w *Watcher) beginSync(ctx context.Context) {
	w.mu.Lock()
	if w.stopDiscovery != nil {
		w.stopDiscovery()
	}
	for p := range w.locks {
		w.before[p] = true
	}
	w.locks, w.owner, w.checked = map[string]*lockcore.Tree{}, map[string]string{}, map[string]int{}
	w.unread, w.unreadTotal, w.dumpOwners = map[string]int{}, 0, nil
	// A new session holds none of the old one's watches.
	w.found, w.armed = map[string]bool{}, map[string]bool{}
	w.dirs, w.dirLocks, w.tracking = map[string]*lockDir{}, map[string]int{}, map[string]bool{}
	w.treeDirs, w.newDirs, w.wholeTree, w.treeFull = 0, 0, false, false
	for p := range w.plain {
		// Tracked again even if their node is gone just now.
		w.found[p] = true
	}
	w.disc = Discovery{WalkRate: w.walkRate()}
	dctx, cancel := context.WithCancel(ctx)
	w.stopDiscovery = cancel
	w.mu.Unlock()
	w.discoverWG.Go(func() { w.discover(dctx) })
}

// discover finds the locks: a first walk at full speed up to its burst,
// then, for a bigger tree, a dump's candidates; it asks for the first sync
// marker (without dump, a live watcher does not wait for the walk, which
// goes on, paced, finding locks as it goes). Then, unless Once, it keeps
// looking for new locks: a tree the first walk covered is watched whole;
// in a bigger one, the directories holding locks are watched (see
// addLockDir), and new locks elsewhere are found by dump on its period
// and by walks, paced.
func (w *Watcher) discover(ctx context.Context) {
	if !w.cfg.Once {
		w.markObserver(ctx)
	}
	for _, p := range w.cfg.Locks {
		w.foundLock(p)
	}
	wk := w.newWalker(w.foundLock)
	w.setWalking(true, wk)
	done := wk.run(ctx, w.walkBurst(), nil)
	dumpOK := false
	if !done {
		dumpOK = w.dumpRound(ctx, w.cfg.ReadLater && !w.cfg.Once)
	}
	if done {
		w.walkEnded(wk)
	}
	if ctx.Err() != nil {
		return
	}
	if w.cfg.Once && !done && (!dumpOK || w.cfg.FullWalk) {
		// Without dump the walk is the only way to find locks: a one-shot
		// command finishes it before saying the picture is whole. A live
		// watcher shows locks as the walk finds them instead.
		done = wk.run(ctx, 0, newLimiter(w.walkRate(), 1))
		if done {
			w.walkEnded(wk)
		}
	}
	if ctx.Err() != nil {
		return
	}
	if w.cfg.Once && !done {
		// The walk stops here: the sync says what it may have missed.
		w.mu.Lock()
		w.disc.Walking, w.disc.WalkReads, w.walk = false, wk.Reads(), nil
		w.mu.Unlock()
	}
	w.askSync(ctx)
	if w.cfg.Once {
		return
	}
	if done {
		// Small enough to watch whole: a lock made since the walk passed
		// is found by this pass, and any later one at once.
		w.watchWhole(ctx)
	}
	w.emitDiscovery(ctx)
	// Counted with discover itself (which holds discoverWG above zero, so
	// adding to it here is safe), so that run waits for every loop that
	// may still emit before it closes Events: a send after that close
	// panics.
	w.discoverWG.Go(func() { w.dumpLoop(ctx) })
	w.discoverWG.Go(func() { w.pollDirs(ctx) })
	w.discoverWG.Go(func() { w.walkProgress(ctx) })
	if !done {
		if wk.run(ctx, 0, newLimiter(w.walkRate(), 1)) {
			w.walkEnded(wk)
			w.askSync(ctx)
		}
	}
	w.walkLoop(ctx)
}

// foundLock queues a lock parent for tracking by the watcher's loop.
func (w *Watcher) foundLock(p string) {
	w.mu.Lock()
	if _, tracked := w.owner[p]; !tracked {
		w.found[p] = true
	}
	w.mu.Unlock()
	w.poke()
}

// askSync asks the watcher's loop to report a sync once it has tracked
// every lock found so far, and waits until it has.
func (w *Watcher) askSync(ctx context.Context) {
	done := make(chan struct{})
	w.mu.Lock()
	w.syncWaiters = append(w.syncWaiters, done)
	w.mu.Unlock()
	w.poke()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// finishSync reports the locks gone since the last sync began and the
// sync itself, then releases those waiting for it. The loop calls it after
// a round that tracked everything found before the sync was asked.
func (w *Watcher) finishSync(ctx context.Context, waiters []chan struct{}) {
	w.mu.Lock()
	var gone []string
	for p := range w.before {
		if w.locks[p] == nil {
			gone = append(gone, p)
			delete(w.seen, p)
		}
	}
	w.before = map[string]bool{}
	// The dump's owners serve the first listing of the locks it named,
	// all tracked by now.
	w.dumpOwners = nil
	w.mu.Unlock()
	disc := w.Discovery()
	sort.Strings(gone)
	for _, p := range gone {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: p})
	}
	w.emit(ctx, Event{Kind: EventSynced, At: time.Now(), Discovery: disc})
	w.firstSyncOnce.Do(func() { close(w.firstSync) })
	for _, ch := range waiters {
		close(ch)
	}
}

// dumpRound asks for a dump and queues the locks among its candidates. It
// returns false when dump could not be used. With owners, the owners of
// the contenders it lists are kept for the first sync (see ReadLater).
func (w *Watcher) dumpRound(ctx context.Context, owners bool) bool {
	candidates, owned, err := w.dump(ctx, owners)
	w.mu.Lock()
	if owned != nil {
		w.dumpOwners = owned
	}
	if err != nil {
		w.disc.DumpNote = dumpNote(err)
		w.dumpRefused = errors.Is(err, words.ErrFourLetterRefused)
	} else {
		w.disc.DumpNote, w.disc.DumpAt, w.disc.Candidates = "", time.Now(), len(candidates)
	}
	w.mu.Unlock()
	if err != nil {
		return false
	}
	w.checkCandidates(ctx, candidates, w.foundLock)
	return true
}

// dumpLoop asks for a dump again whenever its cost allows; a refusal stops
// it (a whitelist changes only with a restart), and the walk then runs
// more often.
func (w *Watcher) dumpLoop(ctx context.Context) {
	for {
		w.mu.Lock()
		refused := w.dumpRefused
		w.mu.Unlock()
		if refused {
			return
		}
		wait := time.Until(w.costs.Next(w.dumpMember(), "dump", w.dumpEvery()))
		select {
		case <-ctx.Done():
			return
		case <-time.After(max(wait, w.dumpEvery()/10)):
		}
		if w.dumpRound(ctx, false) {
			w.emitDiscovery(ctx)
		}
	}
}

// walkLoop walks the tree again on its period: rarely while dump finds
// new locks, more often when it does not.
func (w *Watcher) walkLoop(ctx context.Context) {
	for {
		next := w.nextWalk()
		w.mu.Lock()
		w.disc.NextWalk = next
		w.mu.Unlock()
		w.emitDiscovery(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		wk := w.newWalker(w.foundLock)
		w.setWalking(true, wk)
		w.emitDiscovery(ctx)
		if !wk.run(ctx, 0, newLimiter(w.walkRate(), w.walkBurst())) {
			return
		}
		w.walkEnded(wk)
	}
}

// nextWalk is when the next walk may start.
func (w *Watcher) nextWalk() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastWalkStart.Add(w.walkGap())
}

// walkGap is the least time between the starts of two walks. The caller
// holds w.mu.
func (w *Watcher) walkGap() time.Duration {
	every := w.cfg.WalkEvery
	if every == 0 {
		every = defaultWalkEvery
		if w.dumpRefused || w.disc.DumpAt.IsZero() {
			every = walkEveryWithoutDump
		}
	}
	return max(every, time.Duration(float64(w.lastWalkTook)/walkShare))
}

// setWalking records that wk is under way.
func (w *Watcher) setWalking(on bool, wk *walker) {
	w.mu.Lock()
	w.disc.Walking = on
	w.walk = wk
	w.mu.Unlock()
}

// walkEnded records a complete walk.
func (w *Watcher) walkEnded(wk *walker) {
	w.mu.Lock()
	now := time.Now()
	w.disc.Walking, w.disc.Complete, w.disc.WalkedAt, w.disc.WalkReads = false, true, now, wk.Reads()
	w.lastWalkStart, w.lastWalkTook = wk.started, now.Sub(wk.started)
	w.walk = nil
	w.mu.Unlock()
}

func (w *Watcher) walkBurst() int {
	if w.cfg.WalkBurst > 0 {
		return w.cfg.WalkBurst
	}
	return defaultWalkBurst
}

func (w *Watcher) walkRate() int {
	if w.cfg.WalkRate > 0 {
		return w.cfg.WalkRate
	}
	return defaultWalkRate
}

func (w *Watcher) dumpEvery() time.Duration {
	if w.cfg.DumpEvery > 0 {
		return w.cfg.DumpEvery
	}
	return defaultDumpEvery
}

// Watched returns the paths the watcher holds a watch on, sorted: lock
// parents, semaphore parts, plain lock nodes, parts not created yet, and
// the directories watched for new locks.
func (w *Watcher) Watched() []string {
	w.mu.Lock()
	out := make([]string, 0, len(w.armed))
	for p := range w.armed {
		out = append(out, p)
	}
	w.mu.Unlock()
	sort.Strings(out)
	return out
}

// Costs returns the counter of the four-letter words the watcher asks.
func (w *Watcher) Costs() *words.Costs { return w.costs }
