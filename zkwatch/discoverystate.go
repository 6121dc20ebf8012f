package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/zkwatch/tick"
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
func (w *Watcher) Discovery() Discovery { return w.discovery.report() }

// report is Discovery.
func (d *discoverer) report() Discovery {
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	r := d.progress
	if d.walk != nil {
		r.WalkReads = d.walk.Reads()
	}
	r.Watching = len(d.w.watches.armed)
	d.dirs.describe(&r)
	r.ElsewhereWithin = d.elsewhereWithin()
	r.Persistent = d.persist.describe()
	return r
}

// emitDiscovery reports the discovery's state.
func (d *discoverer) emitDiscovery(ctx context.Context) {
	d.w.emit(ctx, Event{Kind: EventDiscovery, At: time.Now(), Discovery: d.report()})
}

// elsewhereWithin is Discovery.ElsewhereWithin. The caller holds the
// watcher's mu.
func (d *discoverer) elsewhereWithin() time.Duration {
	switch {
	case d.dirs.wholeTree && !d.dirs.treeFull, d.persist.live.Load():
		return 0
	case !d.dumpRefused && !d.progress.DumpAt.IsZero():
		return max(d.dumpEvery(), d.dumpNext(d.dumpEvery()).Sub(d.progress.DumpAt))
	case d.lastWalkTook > 0:
		// A lock made just behind the walk is found at the end of the next.
		return d.walkGap() + d.lastWalkTook
	}
	return 0
}

// walkProgressEvery is how often a walk under way reports its progress.
const walkProgressEvery = time.Second

// walkProgress reports the discovery every second while a walk is under
// way, so that the status bar can say how far it has got; between walks
// it only looks, without making the whole report.
func (d *discoverer) walkProgress(ctx context.Context) {
	tick.Every(ctx, walkProgressEvery, func() {
		d.w.mu.Lock()
		walking := d.progress.Walking
		d.w.mu.Unlock()
		if walking {
			d.emitDiscovery(ctx)
		}
	})
}

// nextWalk is when the next walk may start.
func (d *discoverer) nextWalk() time.Time {
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	return d.lastWalkStart.Add(d.walkGap())
}

// walkGap is the least time between the starts of two walks. The caller
// holds the watcher's mu.
func (d *discoverer) walkGap() time.Duration {
	every := d.w.cfg.WalkEvery
	if every == 0 {
		every = defaultWalkEvery
		if (d.dumpRefused || d.progress.DumpAt.IsZero()) && !d.persist.live.Load() {
			every = walkEveryWithoutDump
		}
	}
	return max(every, time.Duration(float64(d.lastWalkTook)/walkShare))
}

// setWalking records that wk is under way.
func (d *discoverer) setWalking(on bool, wk *walker) {
	d.w.mu.Lock()
	d.progress.Walking = on
	d.walk = wk
	d.w.mu.Unlock()
}

// walkEnded records a complete walk.
func (d *discoverer) walkEnded(wk *walker) {
	d.w.mu.Lock()
	now := time.Now()
	d.progress.Walking, d.progress.Complete, d.progress.WalkedAt, d.progress.WalkReads = false, true, now, wk.Reads()
	d.lastWalkStart, d.lastWalkTook = wk.started, now.Sub(wk.started)
	d.walk = nil
	d.w.mu.Unlock()
}

func (d *discoverer) walkBurst() int {
	if d.w.cfg.WalkBurst > 0 {
		return d.w.cfg.WalkBurst
	}
	return defaultWalkBurst
}

func (d *discoverer) walkRate() int {
	if d.w.cfg.WalkRate > 0 {
		return d.w.cfg.WalkRate
	}
	return defaultWalkRate
}

func (d *discoverer) dumpEvery() time.Duration {
	every := defaultDumpEvery
	if d.w.cfg.DumpEvery > 0 {
		every = d.w.cfg.DumpEvery
	}
	switch {
	case d.persist.sparesDump():
		// The watch has told of every node created since the last dump.
		return max(every*persistSlowdown, persistDumpEvery)
	case d.persist.live.Load():
		// The watch finds new locks at once; dump only makes up for
		// what it could not tell before it was set.
		every *= persistSlowdown
	}
	return every
}

// dumpRecheck is the longest dumpLoop waits before it looks again at
// whether dump is due.
const dumpRecheck = 30 * time.Second
