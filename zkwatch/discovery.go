package zkwatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// discoverer is the watcher's part that finds the locks (see [Discovery]):
// the dump's candidates, the walk, the directories of locks watched or
// polled, and the persistent watch, with their state and pacing. What it
// finds goes to the watcher's next round (foundLock); it reads through the
// watcher's session and its bounded requests, and reads what is tracked
// to pass it by.
//
// Its state is guarded by the watcher's mu, since tracking and discovery
// read each other's (all but loops and persist, which has a lock of its
// own). discover and its loops change it as they dump and walk (dumpRound,
// setWalking, walkEnded, walkLoop); run starts it afresh at the start and
// after an expiry (beginSync, reset) and reports it with each sync
// (finishSync); walkProgress and the callers of Discovery read it.
type discoverer struct {
	w *Watcher
	// progress is what Discovery reports, but for the parts it counts
	// as it is asked.
	progress    Discovery
	dumpRefused bool
	checked     map[string]int // dump candidates that are not locks → their ephemeral count then
	// named is, by dump candidate, what its sample's name told (see
	// sampleIsContender).
	named map[string]sampleName
	walk  *walker // under way, or nil
	// lastWalkStart and lastWalkTook pace the next walk.
	lastWalkStart time.Time
	lastWalkTook  time.Duration
	// stop ends the discovery under way; loops counts discover and the
	// loops it starts, which run waits for before it closes Events.
	stop  context.CancelFunc
	loops sync.WaitGroup
	// dirs are the directories watched for new locks (lockdirs.go).
	dirs dirWatches
	// persist is the persistent watch's, under a lock of its own
	// (pwatch.go).
	persist *persistState
}

func newDiscoverer(w *Watcher) *discoverer {
	return &discoverer{w: w, checked: map[string]int{}, named: map[string]sampleName{}, dirs: newDirWatches(),
		persist: newPersistState(w.cfg.PersistentQueueMax)}
}

// reset stops the discovery under way and forgets what it found, for a
// new session (or the first); the caller holds the watcher's mu.
func (d *discoverer) reset() {
	if d.stop != nil {
		d.stop()
	}
	d.checked, d.named = map[string]int{}, map[string]sampleName{}
	// A new session holds none of the old one's watches.
	d.dirs = newDirWatches()
	d.progress = Discovery{WalkRate: d.walkRate()}
}

// discover finds the locks: a first walk at full speed up to its burst,
// then, for a bigger tree, a dump's candidates; it asks for the first sync
// marker (without dump, a live watcher does not wait for the walk, which
// goes on, paced, finding locks as it goes). Then, unless Once, it keeps
// looking for new locks: a tree the first walk covered is watched whole;
// in a bigger one, the directories holding locks are watched (see
// addLockDir), and new locks elsewhere are found by dump on its period
// and by walks, paced.
func (d *discoverer) discover(ctx context.Context) {
	if !d.w.cfg.Once {
		d.markObserver(ctx)
		d.loops.Go(func() { d.persistentLoop(ctx) })
	}
	for _, p := range d.w.cfg.Locks {
		d.foundLock(p)
	}
	wk := newWalker(d.w, d.foundLock)
	d.setWalking(true, wk)
	done := wk.run(ctx, d.walkBurst(), nil)
	dumpOK := false
	if !done {
		dumpOK = d.dumpRound(ctx, d.w.cfg.ReadLater && !d.w.cfg.Once)
	}
	if done {
		d.walkEnded(wk)
	}
	if ctx.Err() != nil {
		return
	}
	if d.w.cfg.Once && !done && (!dumpOK || d.w.cfg.FullWalk) {
		// Without dump the walk is the only way to find locks: a one-shot
		// command finishes it before saying the picture is whole. A live
		// watcher shows locks as the walk finds them instead.
		done = wk.run(ctx, 0, newLimiter(d.walkRate(), 1))
		if done {
			d.walkEnded(wk)
		}
	}
	if ctx.Err() != nil {
		return
	}
	if d.w.cfg.Once && !done {
		// The walk stops here: the sync says what it may have missed.
		d.w.mu.Lock()
		d.progress.Walking, d.progress.WalkReads, d.walk = false, wk.Reads(), nil
		d.w.mu.Unlock()
	}
	d.w.askSync(ctx)
	if d.w.cfg.Once {
		return
	}
	if done {
		// Small enough to watch whole: a lock made since the walk passed
		// is found by this pass, and any later one at once.
		d.watchWhole(ctx)
	}
	d.emitDiscovery(ctx)
	// Counted with discover itself (which holds loops above zero, so
	// adding to it here is safe), so that run waits for every loop that
	// may still emit before it closes Events: a send after that close
	// panics.
	d.loops.Go(func() { d.dumpLoop(ctx) })
	d.loops.Go(func() { d.pollDirs(ctx) })
	d.loops.Go(func() { d.walkProgress(ctx) })
	if !done {
		if wk.run(ctx, 0, newLimiter(d.walkRate(), 1)) {
			d.walkEnded(wk)
			d.w.askSync(ctx)
		}
	}
	d.walkLoop(ctx)
}

// foundLock queues a lock parent for tracking by the watcher's loop.
func (d *discoverer) foundLock(p string) {
	d.w.mu.Lock()
	if _, tracked := d.w.tracked.owner[p]; !tracked {
		d.w.next.found[p] = true
	}
	d.w.mu.Unlock()
	d.w.poke()
}

// dumpRound asks for a dump and queues the locks among its candidates. It
// returns false when dump could not be used. With owners, the owners of
// the contenders it lists are kept for the first sync (see ReadLater).
func (d *discoverer) dumpRound(ctx context.Context, owners bool) bool {
	live := d.persist.liveSet()
	candidates, owned, err := d.dump(ctx, owners)
	if err == nil {
		d.persist.dumpedLive.Store(live)
	}
	d.w.mu.Lock()
	if owned != nil {
		d.w.toFill.dumpOwners = owned
	}
	if err != nil {
		d.progress.DumpNote = dumpNote(err)
		d.dumpRefused = errors.Is(err, words.ErrFourLetterRefused)
	} else {
		d.progress.DumpNote, d.progress.DumpAt, d.progress.Candidates = "", time.Now(), len(candidates)
	}
	d.w.mu.Unlock()
	if err != nil {
		return false
	}
	d.checkCandidates(ctx, candidates, d.foundLock)
	return true
}

// dumpLoop asks for a dump again whenever its cost allows; a refusal stops
// it (a whitelist changes only with a restart), and the walk then runs
// more often.
func (d *discoverer) dumpLoop(ctx context.Context) {
	for {
		d.w.mu.Lock()
		refused := d.dumpRefused
		d.w.mu.Unlock()
		if refused {
			return
		}
		every := d.dumpEvery()
		wait := max(time.Until(d.dumpNext(every)), min(every/10, dumpRecheck))
		if wait > dumpRecheck {
			// The pace may change meanwhile: the persistent watch
			// lost makes dump the way to find new locks again.
			wait = dumpRecheck
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if time.Now().Before(d.dumpNext(d.dumpEvery())) {
			continue
		}
		if d.dumpRound(ctx, false) {
			d.emitDiscovery(ctx)
		}
	}
}

// walkLoop walks the tree again on its period: rarely while dump finds
// new locks, more often when it does not.
func (d *discoverer) walkLoop(ctx context.Context) {
	for {
		next := d.nextWalk()
		d.w.mu.Lock()
		d.progress.NextWalk = next
		d.w.mu.Unlock()
		d.emitDiscovery(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		wk := newWalker(d.w, d.foundLock)
		d.setWalking(true, wk)
		d.emitDiscovery(ctx)
		if !wk.run(ctx, 0, newLimiter(d.walkRate(), d.walkBurst())) {
			return
		}
		d.walkEnded(wk)
	}
}

// markObserver arms the exists watch on zklocks' mark
// (lockcore.ObserverMark) that tells other zklocks watchers this session
// is one of them: the exists watches it keeps on plain lock nodes that
// are gone are then not taken for a waiter's. The mark is a server path,
// outside any chroot, and is armed once per session: nobody creates the
// node, so the watch lasts as long as the session. A failure is reported
// and changes nothing else: another zklocks may then count this session
// among the waiters of a free plain lock.
func (d *discoverer) markObserver(ctx context.Context) {
	d.w.sem <- struct{}{}
	_, _, _, err := d.w.conn.zk.ExistsW(lockcore.ObserverMark)
	<-d.w.sem
	if err != nil && ctx.Err() == nil {
		d.w.report(ctx, lockcore.ObserverMark, err, false)
	}
}
