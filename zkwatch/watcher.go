package zkwatch

import (
	"context"
	"errors"
	"fmt"
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
	// Events after EventSynced: for one-shot commands.
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

	mu      sync.Mutex
	locks   map[string]*lockcore.Tree // lock path → what was last read of it
	owner   map[string]string         // watched path of a lock → lock path
	armed   map[string]bool           // paths with a watch pending
	dirty   map[string]bool           // watched paths that fired
	found   map[string]bool           // lock paths discovery found, to track
	checked map[string]int            // dump candidates that are not locks → their ephemeral count then
	before  map[string]bool           // locks of the last sync, until the next
	// dirs are the directories watched (or polled) for new locks;
	// dirLocks counts the locks tracked in each directory, and tracking
	// are the locks the current round tracks for the first time.
	dirs              map[string]*lockDir
	dirLocks          map[string]int
	tracking          map[string]bool
	treeDirs, newDirs int  // dirs of kind dirOfTree and dirNew
	wholeTree         bool // the tree was small enough to watch whole
	treeFull          bool // it has grown past wholeTreeMax since
	// plain are the paths known to be plain ephemeral lock nodes, with
	// when their node was found gone (zero while it is there): while it
	// is gone they stay tracked, free, for PlainGrace.
	plain  map[string]time.Time
	resync bool // a new session: find everything again
	reread bool // a reconnect: read every lock again
	// reanalyze: the watch table changed, so every lock's analysis is
	// redone from what was read, without reading again.
	reanalyze bool
	table     *lockcore.WatchTable
	state     ConnState
	// breaks counts the times the session lost its connection (or
	// expired): a lock read twice with no break between had its watch
	// armed throughout, so a change between the reads was read at once.
	breaks int
	// seen is what the last read of each lock saw, for the next read to
	// tell when its holders got the lock.
	seen        map[string]seenLock
	wake        chan struct{}
	syncWaiters []chan struct{}

	disc        Discovery
	dumpRefused bool
	focus       string // the lock the operator looks at
	lockGen     uint64 // grows whenever a lock is first tracked
	// lockFound wakes the enrich loop when a lock is first tracked: the watch
	// table is read again soon, with its watches (see enrichLoop).
	lockFound     chan struct{}
	walk          *walker // under way, or nil
	lastWalkStart time.Time
	lastWalkTook  time.Duration
	stopDiscovery context.CancelFunc
	discoverWG    sync.WaitGroup
	// dumpOwners are the owners of the contenders the first sync's dump
	// named, by path, until that sync (ReadLater).
	dumpOwners *dumpOwners
	// unread counts, per lock, its contenders not read yet, and
	// unreadTotal all of them; fillWake wakes the loop that reads them.
	unread      map[string]int
	unreadTotal int
	fillWake    chan struct{}
	// firstSync closes when the first sync is reported.
	firstSync     chan struct{}
	firstSyncOnce sync.Once
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
		locks: map[string]*lockcore.Tree{}, owner: map[string]string{}, found: map[string]bool{}, checked: map[string]int{},
		before: map[string]bool{}, plain: map[string]time.Time{}, dirs: map[string]*lockDir{}, dirLocks: map[string]int{}, tracking: map[string]bool{}, armed: map[string]bool{}, seen: map[string]seenLock{}, dirty: map[string]bool{}, wake: make(chan struct{}, 1), table: cfg.Watches,
		unread: map[string]int{}, fillWake: make(chan struct{}, 1), firstSync: make(chan struct{}), lockFound: make(chan struct{}, 1),
		state: ConnState{Phase: Connected, Server: conn.zk.Server(), Session: conn.SessionID(), Since: time.Now()}}
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
	defer w.discoverWG.Wait()
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
		dirty, found, resync, reanalyze, waiters := w.dirty, w.found, w.resync, w.reanalyze, w.syncWaiters
		w.dirty, w.found, w.resync, w.reanalyze, w.syncWaiters = map[string]bool{}, map[string]bool{}, false, false, nil
		reread := w.reread && !resync
		if reread {
			for p := range w.locks {
				found[p] = true
			}
		}
		w.reread = false
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

// onWatchEvent takes a watch notification from the connection: a path the
// watcher armed is marked for reading; an expiry asks for a re-sync.
func (w *Watcher) onWatchEvent(ev zk.Event) {
	if ev.Type == zk.EventNotWatching {
		if errors.Is(ev.Err, zk.ErrSessionExpired) {
			w.mu.Lock()
			w.resync = true
			w.mu.Unlock()
			w.poke()
		}
		return
	}
	path, ok := w.conn.rel(ev.Path)
	if !ok {
		return
	}
	w.mu.Lock()
	armed := w.armed[path]
	if armed {
		delete(w.armed, path)
		w.dirty[path] = true
	}
	w.mu.Unlock()
	if armed {
		w.poke()
	}
}

// claimWatch reports whether a read of path should arm a watch, and if
// so marks it armed: none in Once mode, and none while one is pending
// (re-arming would only duplicate the notification).
func (w *Watcher) claimWatch(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfg.Once || w.armed[path] {
		return false
	}
	w.armed[path] = true
	return true
}

// children lists path's children, arming a children watch unless one is
// already pending: re-arming would only duplicate the notification.
func (w *Watcher) children(path string) ([]string, *zk.Stat, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	if !w.claimWatch(path) {
		return w.list(path)
	}
	r, err := guard(w, func() (listing, error) {
		names, stat, _, err := w.conn.zk.ChildrenW(w.conn.abs(path))
		return listing{names, stat}, err
	})
	names, stat := r.names, r.stat
	if err != nil {
		w.mu.Lock()
		delete(w.armed, path)
		w.mu.Unlock()
		return nil, nil, err
	}
	return names, stat, nil
}

// get reads one node, keeping at most lockcore.DataLimit bytes of data.
func (w *Watcher) get(path string) (lockcore.Node, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	return w.read(path, baseName(path))
}

// read reads the node at path, named name, without taking a request slot:
// the caller holds one.
func (w *Watcher) read(path, name string) (lockcore.Node, error) {
	return guard(w, func() (lockcore.Node, error) { return w.conn.getNode(path, name) })
}

// listing is a children request's answer.
type listing struct {
	names []string
	stat  *zk.Stat
}

// guard runs a request; a one-shot watcher gives up on it when its
// requests must stop: go-zookeeper holds a request made while
// disconnected until it reconnects, which a one-shot walk whose server
// died would wait for forever. A live watcher waits for the reconnect.
func guard[T any](w *Watcher, f func() (T, error)) (T, error) {
	if !w.cfg.Once {
		return f()
	}
	return call(w.reqCtx, f)
}

// SetWatchTable gives the watcher the servers' latest watch table (nil when
// unknown); every lock is analysed again against it.
func (w *Watcher) SetWatchTable(t *lockcore.WatchTable) {
	w.mu.Lock()
	w.table, w.reanalyze = t, true
	w.mu.Unlock()
	w.poke()
}
