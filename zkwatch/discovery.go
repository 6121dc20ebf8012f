package zkwatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// discoveryState is how far finding the locks has got. discover and its
// loops change it as they dump and walk (dumpRound, setWalking,
// walkEnded, walkLoop); run starts it afresh at the start and after an
// expiry (beginSync) and reports it with each sync (finishSync);
// walkProgress and the callers of Discovery read it.
type discoveryState struct {
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
		w.discovery.loops.Go(func() { w.persistentLoop(ctx) })
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
		w.discovery.progress.Walking, w.discovery.progress.WalkReads, w.discovery.walk = false, wk.Reads(), nil
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
	// Counted with discover itself (which holds discovery.loops above zero, so
	// adding to it here is safe), so that run waits for every loop that
	// may still emit before it closes Events: a send after that close
	// panics.
	w.discovery.loops.Go(func() { w.dumpLoop(ctx) })
	w.discovery.loops.Go(func() { w.pollDirs(ctx) })
	w.discovery.loops.Go(func() { w.walkProgress(ctx) })
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
	if _, tracked := w.tracked.owner[p]; !tracked {
		w.next.found[p] = true
	}
	w.mu.Unlock()
	w.poke()
}

// dumpRound asks for a dump and queues the locks among its candidates. It
// returns false when dump could not be used. With owners, the owners of
// the contenders it lists are kept for the first sync (see ReadLater).
func (w *Watcher) dumpRound(ctx context.Context, owners bool) bool {
	live := w.persist.liveSet()
	candidates, owned, err := w.dump(ctx, owners)
	if err == nil {
		w.persist.dumpedLive.Store(live)
	}
	w.mu.Lock()
	if owned != nil {
		w.toFill.dumpOwners = owned
	}
	if err != nil {
		w.discovery.progress.DumpNote = dumpNote(err)
		w.discovery.dumpRefused = errors.Is(err, words.ErrFourLetterRefused)
	} else {
		w.discovery.progress.DumpNote, w.discovery.progress.DumpAt, w.discovery.progress.Candidates = "", time.Now(), len(candidates)
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
		refused := w.discovery.dumpRefused
		w.mu.Unlock()
		if refused {
			return
		}
		every := w.dumpEvery()
		wait := max(time.Until(w.costs.Next(w.dumpMember(), "dump", every)), min(every/10, dumpRecheck))
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
		if !w.costs.Due(w.dumpMember(), "dump", w.dumpEvery()) {
			continue
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
		w.discovery.progress.NextWalk = next
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
	return w.discovery.lastWalkStart.Add(w.walkGap())
}

// walkGap is the least time between the starts of two walks. The caller
// holds w.mu.
func (w *Watcher) walkGap() time.Duration {
	every := w.cfg.WalkEvery
	if every == 0 {
		every = defaultWalkEvery
		if (w.discovery.dumpRefused || w.discovery.progress.DumpAt.IsZero()) && !w.persist.live.Load() {
			every = walkEveryWithoutDump
		}
	}
	return max(every, time.Duration(float64(w.discovery.lastWalkTook)/walkShare))
}

// setWalking records that wk is under way.
func (w *Watcher) setWalking(on bool, wk *walker) {
	w.mu.Lock()
	w.discovery.progress.Walking = on
	w.discovery.walk = wk
	w.mu.Unlock()
}

// walkEnded records a complete walk.
func (w *Watcher) walkEnded(wk *walker) {
	w.mu.Lock()
	now := time.Now()
	w.discovery.progress.Walking, w.discovery.progress.Complete, w.discovery.progress.WalkedAt, w.discovery.progress.WalkReads = false, true, now, wk.Reads()
	w.discovery.lastWalkStart, w.discovery.lastWalkTook = wk.started, now.Sub(wk.started)
	w.discovery.walk = nil
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
	every := defaultDumpEvery
	if w.cfg.DumpEvery > 0 {
		every = w.cfg.DumpEvery
	}
	switch live := w.persist.liveSet(); {
	case live != 0 && live == w.persist.dumpedLive.Load():
		// The watch has told of every node created since the last dump.
		return max(every*persistSlowdown, persistDumpEvery)
	case live != 0:
		// The watch finds new locks at once; dump only makes up for
		// what it could not tell before it was set.
		every *= persistSlowdown
	}
	return every
}

// dumpRecheck is the longest dumpLoop waits before it looks again at
// whether dump is due.
const dumpRecheck = 30 * time.Second

// Costs returns the counter of the four-letter words the watcher asks.
func (w *Watcher) Costs() *words.Costs { return w.costs }
