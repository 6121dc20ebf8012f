package zkwatch

import (
	"context"
	"time"
)

// Discovery says how the watcher finds locks and how far it has got. It
// comes with EventDiscovery and EventSynced.
type Discovery struct {
	// DumpAt is when the last dump was read; zero when none was.
	DumpAt time.Time
	// DumpNote says why dump is not used, when it is not.
	DumpNote string
	// Candidates is how many directories the last dump named as holding
	// ephemeral nodes under the roots.
	Candidates int
	// Walking is true while a walk is under way; WalkReads counts its
	// requests so far (or the last walk's, when none is under way).
	Walking   bool
	WalkReads int
	// WalkedAt is when the last complete walk ended; zero before the
	// first. NextWalk is when the next one starts, if one is planned.
	WalkedAt, NextWalk time.Time
	// WalkRate is the reads a second the walk is paced at past its burst.
	WalkRate int
	// Watching is how many watches the watcher holds on the servers.
	Watching int
	// WatchedDirs is how many directories holding locks (every directory,
	// when WholeTree) have a children watch, so that a new lock in them is
	// seen at once. PolledCount counts those with too many children to
	// watch, listed on a period instead; PolledDirs names the first few.
	WatchedDirs, PolledCount int
	PolledDirs               []string
	// WholeTree: the tree was small enough to watch every directory of it;
	// TreeFull: it has grown past that since, and the directories added
	// are not all watched.
	WholeTree, TreeFull bool
	// ElsewhereWithin is how soon a new lock outside the watched
	// directories is found: the gap between dumps while dump is answered,
	// else the walk's period and length. Zero while nothing bounds it yet.
	ElsewhereWithin time.Duration
	// Complete: every lock under the roots is known, because a walk ended
	// since the last (re)sync began. Until then locks whose contenders are
	// all persistent, which no dump lists, may be missing, and any lock
	// where dump is not answered.
	Complete bool
	// Persistent is the persistent recursive watch's: whether it finds
	// new locks at once anywhere under the roots, and its cost.
	Persistent PersistentWatch
}

// Discovery returns how the watcher finds locks, as of now.
func (w *Watcher) Discovery() Discovery {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.discovery.progress
	if w.discovery.walk != nil {
		d.WalkReads = w.discovery.walk.Reads()
	}
	d.Watching = len(w.watches.armed)
	w.dirs.describe(&d)
	d.ElsewhereWithin = w.elsewhereWithin()
	d.Persistent = w.persist.describe()
	return d
}

// emitDiscovery reports the discovery's state.
func (w *Watcher) emitDiscovery(ctx context.Context) {
	w.emit(ctx, Event{Kind: EventDiscovery, At: time.Now(), Discovery: w.Discovery()})
}

// elsewhereWithin is Discovery.ElsewhereWithin. The caller holds w.mu.
func (w *Watcher) elsewhereWithin() time.Duration {
	switch {
	case w.dirs.wholeTree && !w.dirs.treeFull, w.persist.live.Load():
		return 0
	case !w.discovery.dumpRefused && !w.discovery.progress.DumpAt.IsZero():
		return max(w.dumpEvery(), w.costs.Next(w.dumpMember(), "dump", w.dumpEvery()).Sub(w.discovery.progress.DumpAt))
	case w.discovery.lastWalkTook > 0:
		// A lock made just behind the walk is found at the end of the next.
		return w.walkGap() + w.discovery.lastWalkTook
	}
	return 0
}

// walkProgressEvery is how often a walk under way reports its progress.
const walkProgressEvery = time.Second

// walkProgress reports the discovery every second while a walk is under
// way, so that the status bar can say how far it has got; between walks
// it only looks, without making the whole report.
func (w *Watcher) walkProgress(ctx context.Context) {
	tick := time.NewTicker(walkProgressEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.mu.Lock()
		walking := w.discovery.progress.Walking
		w.mu.Unlock()
		if walking {
			w.emitDiscovery(ctx)
		}
	}
}
