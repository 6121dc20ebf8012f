package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// WatchConfig configures a Watcher.
type WatchConfig struct {
	// Roots are the subtrees walked for locks; empty means "/". The
	// /zookeeper subtree is never walked.
	Roots []string
	// Locks are paths watched as locks whatever their children look like.
	Locks []string
	// MaxDepth limits how far below each root the walk goes; 0 means no
	// limit.
	MaxDepth int
	// Concurrency bounds the requests the watcher keeps in flight on the
	// session, and the nodes it reads at once; 0 means 64.
	Concurrency int
	// Coalesce is the least time between two rounds of reading what
	// changed. A round starts as soon as something has changed and the
	// last round is done, and reads each changed lock once however often
	// it changed meanwhile, so a burst gathers into a few rounds by
	// itself. A positive Coalesce also spaces rounds at least that far
	// apart, gathering more into each, which bounds how often a busy lock
	// is read again at the cost of latency; the first change after a
	// quiet spell is read at once either way. 0 means no spacing.
	Coalesce time.Duration
	// Analysis tunes each lock's analysis.
	Analysis lockcore.Options
	// Watches is the servers' watch table to analyse against until
	// SetWatchTable gives a newer one; nil means recipe rules.
	Watches *lockcore.WatchTable
	// EnrichEvery is how often every server is asked for its four-letter
	// words (srvr, cons, wchc); 0 means 5 s, negative never. cons and the
	// watch table are asked less often when their cost says so.
	EnrichEvery time.Duration
	// WatchMode says whether the servers' watch table is read, and
	// WatchBudget the most watches they may hold for WatchesAuto to read
	// it (0: DefaultWatchBudget).
	WatchMode   WatchMode
	WatchBudget int
	// PlainGrace is how long a plain ephemeral lock node that is gone
	// stays listed, free, with a watch for its next holder; 0 means
	// 5 minutes. Past it the lock is reported gone, so that locks named
	// per job or per entity do not pile up.
	PlainGrace time.Duration
	// Once walks and reads everything once, sets no watches, and closes
	// Events after EventSynced: for one-shot commands. When Watches
	// leaves a waiter unjudged (its node may be newer than its watch), the
	// table is read twice more after the walk and the locks analysed
	// again before EventSynced.
	Once bool
	// ReadLater lets the first sync on a tree searched by dump report the
	// locks from their listings alone: a contender the dump names (with
	// its owner) is reported Pending, its place, role and session known,
	// and its Stat and data are read after the sync at the walk's rate,
	// holders first and the focused lock before the rest, each lock
	// reported again as its nodes are read. A contender that joins a
	// lock already reported is then reported from the listing at once,
	// Pending and of no known owner, and again once read. Ignored with
	// Once.
	ReadLater bool

	// WalkBurst is how many reads the first walk makes at full speed; a
	// tree that fits is walked whole before the first sync, and then
	// watched whole (every node of it, up to 2,000), a bigger one is
	// searched by dump first. 0 means 2,000.
	WalkBurst int
	// WalkRate paces every walk past its burst, in reads a second; 0
	// means 2,000.
	WalkRate int
	// WalkEvery is the least gap between two walks; 0 means 10 minutes
	// while dump is answered and 10 seconds when it is not. A walk that
	// took d is followed by the next no sooner than 10×d after it began.
	WalkEvery time.Duration
	// DumpEvery is the least gap between two dumps, which find new locks
	// with ephemeral contenders; 0 means 5 s. A dump that took d is asked
	// again no sooner than d/words.MaxWordShare later.
	DumpEvery time.Duration
	// FullWalk, with Once, finishes the walk before the sync even where a
	// dump found the locks with ephemeral contenders, so that locks whose
	// contenders are all persistent are listed too.
	FullWalk bool
	// DirWatchMax is the most children a directory of locks may have for
	// it to be watched, so that a new lock in it is seen at once; a bigger
	// one is listed on a period instead. 0 means 1,000.
	DirWatchMax int
	// PersistentWatchOff turns the persistent recursive watch off:
	// discovery is then as on a server older than 3.6, by the dump and the
	// walk alone (see [PersistentWatch]).
	PersistentWatchOff bool
	// PersistentQueueMax bounds the directories the persistent watch told
	// of that wait to be looked at; a flood past it is dropped and made
	// up for by a re-read of the roots at WalkRate. 0 means 4,096.
	PersistentQueueMax int
	// Costs, if not nil, counts the four-letter words the watcher asks;
	// nil makes a Costs of the watcher's own (see Watcher.Costs).
	Costs *words.Costs
}

// Watcher keeps a live, watch-driven picture of every lock under its roots
// and reports changes as Events. It watches locks only: one children watch
// per lock parent (and per semaphore part); a fired watch is re-armed when
// the path is read again. It finds locks without watching the rest of the
// tree: a children watch on each directory that holds locks sees a new
// lock beside them at once (on every directory, for a small tree), a
// dump's ephemeral nodes name the candidate lock parents elsewhere, and a
// walk paced to a read rate finds the rest (see [Discovery]). After a
// session expiry everything is found and read again.
type Watcher struct {
	conn   *Conn
	cfg    WatchConfig
	events chan Event
	sem    chan struct{} // a slot per request in flight, Concurrency in all
	costs  *words.Costs
	// reqCtx ends the watcher's requests: when it ends, and in Once mode
	// when the connection is lost.
	reqCtx context.Context
	// wake tells run that next has work for a round.
	wake chan struct{}

	// mu guards the parts below, all but what is safe without it: their
	// channels, made once, syncs.firstOnce, discovery.loops, and
	// discovery.persist, under a lock of its own. The
	// goroutines that touch each part are named on its type: run (the
	// main loop, with the pool helpers of its rounds), trackConn,
	// discover and the loops it starts (dumpLoop, walkLoop, pollDirs,
	// walkProgress), fillLoop, enrichLoop, go-zookeeper's event loop
	// (onWatchEvent), the grace timer of a plain lock that went
	// (recheckPlain), and the callers of the exported methods.
	mu        sync.Mutex
	next      roundRequests // what run's next round does (watcher.go)
	watches   watchSet      // the watches armed, and those that fired (watches.go)
	syncs     syncState     // the sync markers asked and reported (sync.go)
	session   sessionState  // the session's phase and its breaks (conntrack.go)
	tracked   trackedLocks  // what was last read of each lock (track.go)
	discovery *discoverer   // finding the locks, and how far it has got (discovery.go)
	toFill    fillState     // the contenders listed but not read yet (fill.go)
	enrich    enrichState   // what the enrich loop and tracking tell each other (enrichloop.go)
}

// Watch starts watching through conn. Events closes when ctx ends (or,
// with Once, after the first sync). The caller keeps ownership of conn and
// closes it after ctx ends.
//
// A Conn has one Watcher at a time: the session's watch notifications and
// state changes go to it alone. Watch on a Conn whose Watcher still runs
// (its Events not yet closed) returns a Watcher whose Events carry one
// EventError with ErrWatched, then close; the running one is untouched.
// Once a Watcher's Events have closed, the Conn may be watched again.
func Watch(ctx context.Context, conn *Conn, cfg WatchConfig) *Watcher {
	if len(cfg.Roots) == 0 {
		cfg.Roots = []string{"/"}
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 64
	}
	if cfg.Costs == nil {
		cfg.Costs = words.NewCosts()
	}
	w := &Watcher{conn: conn, cfg: cfg, events: make(chan Event, 256), sem: make(chan struct{}, cfg.Concurrency), costs: cfg.Costs,
		wake:    make(chan struct{}, 1),
		next:    roundRequests{found: map[string]bool{}, unread: map[string]bool{}},
		watches: newWatchSet(),
		syncs:   syncState{before: map[string]bool{}, first: make(chan struct{})},
		session: sessionState{state: ConnState{Phase: Connected, Server: conn.zk.Server(), Session: conn.SessionID(), Since: time.Now()}},
		tracked: newTrackedLocks(),
		toFill:  fillState{unread: map[string]int{}, wake: make(chan struct{}, 1)},
		enrich:  enrichState{table: cfg.Watches, lockFound: make(chan struct{}, 1)},
	}
	w.discovery = newDiscoverer(w)
	if !conn.onWatch.claim() {
		w.events <- Event{Kind: EventError, At: time.Now(), Err: ErrWatched}
		close(w.events)
		return w
	}
	go w.run(ctx)
	return w
}

// Events returns the watcher's events. They must be read: the watcher
// waits for its reader, gathering changes meanwhile.
func (w *Watcher) Events() <-chan Event { return w.events }

// Costs returns the counter of the four-letter words the watcher asks.
func (w *Watcher) Costs() *words.Costs { return w.costs }

// roundRequests is what run's next round is to do besides reading the
// watches that fired (watchSet.fired). Whoever finds such work asks for it
// and pokes run awake: discover's loops and run's own rounds queue the
// locks they find (foundLock, checkCandidates, relistDir), as does the
// grace timer of a plain lock that went (recheckPlain); trackConn asks for
// a re-sync or a re-read, go-zookeeper's event loop (onWatchEvent) for a
// re-sync after an expiry, and SetWatchTable (enrichLoop) for every
// lock's analysis again; refresh keeps the locks it could not read for
// the next reconnect (keepUnread). run takes them all as each round
// starts.
type roundRequests struct {
	found  map[string]bool // lock paths found, to track
	resync bool            // a new session: find everything again
	reread bool            // a reconnect: read every lock again
	// unread are the locks found whose read failed (the connection lost
	// under it, as a reconnect often is at once): not tracked, so no
	// watch of theirs fires and a reconnect's reread of the tracked ones
	// passes them by. The next reconnect or re-sync reads them again.
	unread map[string]bool
	// reanalyze: the watch table changed, so every lock's analysis is
	// redone from what was read, without reading again.
	reanalyze bool
}

// takeUnread moves the locks whose read failed into found, to be read
// again.
func (r *roundRequests) takeUnread(found map[string]bool) {
	maps.Copy(found, r.unread)
	r.unread = map[string]bool{}
}

func (w *Watcher) run(ctx context.Context) {
	defer close(w.events)
	ctx, stopGuard := w.guardOnce(ctx)
	defer stopGuard()
	w.reqCtx = ctx
	w.conn.onWatch.set(w.onWatchEvent)
	defer w.conn.onWatch.release()
	var background sync.WaitGroup
	if !w.cfg.Once {
		background.Go(func() { w.trackConn(ctx) })
		if w.cfg.ReadLater {
			background.Go(func() { w.fillLoop(ctx) })
		}
		if every := w.cfg.EnrichEvery; every >= 0 {
			if every == 0 {
				every = defaultEnrichEvery
			}
			background.Go(func() { w.enrichLoop(ctx, every) })
		}
	}
	defer background.Wait()
	defer w.discovery.loops.Wait()
	w.emit(ctx, Event{Kind: EventConn, At: time.Now(), Conn: w.connState()})
	w.beginSync(ctx)
	var last time.Time // when the last round of reads began
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		}
		if wait := w.cfg.Coalesce - time.Since(last); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		last = time.Now()
		w.mu.Lock()
		dirty, found, resync, reanalyze, waiters := w.watches.fired, w.next.found, w.next.resync, w.next.reanalyze, w.syncs.waiters
		w.watches.fired, w.next.found, w.next.resync, w.next.reanalyze, w.syncs.waiters = map[string]bool{}, map[string]bool{}, false, false, nil
		reread := w.next.reread && !resync
		if reread {
			for p := range w.tracked.locks {
				found[p] = true
			}
			w.next.takeUnread(found)
		}
		w.next.reread = false
		w.mu.Unlock()
		if resync {
			if !w.awaitSession(ctx) {
				return
			}
			w.beginSync(ctx)
			continue
		}
		w.refresh(ctx, dirty, found)
		if reanalyze {
			w.analyzeAll(ctx)
		}
		if len(waiters) > 0 || reread {
			if w.cfg.Once {
				w.judgeOnce(ctx)
			}
			w.finishSync(ctx, waiters)
			if w.cfg.Once {
				return
			}
		}
	}
}

// awaitSession waits until the connection has a session, so that a
// re-sync asked for when the old session expired does not start while
// go-zookeeper is still getting a new one, only to stall or fail. It
// returns false when ctx ends first.
func (w *Watcher) awaitSession(ctx context.Context) bool {
	for w.conn.zk.State() != zk.StateHasSession {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return true
}

// emit hands an event to the reader, unless ctx ends first.
func (w *Watcher) emit(ctx context.Context, ev Event) {
	select {
	case w.events <- ev:
	case <-ctx.Done():
	}
}

// report turns a failed read into an event: a denied path, or an error
// (for a root that does not exist, an error wrapping ErrNoNode).
func (w *Watcher) report(ctx context.Context, path string, err error, root bool) {
	switch {
	case errors.Is(err, zk.ErrNoAuth):
		w.emit(ctx, Event{Kind: EventDenied, At: time.Now(), Path: path, Err: fmt.Errorf("%s: %w", path, err)})
	case errors.Is(err, zk.ErrNoNode) && !root:
		// It went while the walk reached it.
	default:
		w.emit(ctx, Event{Kind: EventError, At: time.Now(), Path: path, Err: fmt.Errorf("%s: %w", path, err)})
	}
}

func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
