package zkwatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
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
	// words (srvr, cons, wchc); 0 means 5 s, negative never.
	EnrichEvery time.Duration
	// Once walks and reads everything once, sets no watches, and closes
	// Events after EventSynced: for one-shot commands.
	Once bool
}

// Watcher keeps a live, watch-driven picture of every lock under its roots
// and reports changes as Events. One children watch is kept per lock parent
// (and per semaphore part, and per walked node, so that new locks appear);
// a fired watch is re-armed when the path is read again. After a session
// expiry everything is walked and read again.
type Watcher struct {
	conn   *Conn
	cfg    WatchConfig
	events chan Event
	sem    chan struct{} // a slot per request in flight, Concurrency in all

	mu     sync.Mutex
	locks  map[string]*lockcore.Tree // lock path → what was last read of it
	owner  map[string]string         // watched path of a lock → lock path
	dirs   map[string]*walked        // walked node that is not a lock → its children
	armed  map[string]bool           // paths with a children watch pending
	dirty  map[string]bool
	resync bool
	// reanalyze: the watch table changed, so every lock's analysis is
	// redone from what was read, without reading again.
	reanalyze bool
	table     *lockcore.WatchTable
	state     ConnState
	wake      chan struct{}
}

// walked is a node the walk passed through.
type walked struct {
	depth int
	names map[string]bool
}

// Watch starts watching through conn. Events closes when ctx ends (or,
// with Once, after the first sync). The caller keeps ownership of conn and
// closes it after ctx ends.
func Watch(ctx context.Context, conn *Conn, cfg WatchConfig) *Watcher {
	if len(cfg.Roots) == 0 {
		cfg.Roots = []string{"/"}
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 64
	}
	w := &Watcher{conn: conn, cfg: cfg, events: make(chan Event, 256), sem: make(chan struct{}, cfg.Concurrency),
		locks: map[string]*lockcore.Tree{}, owner: map[string]string{}, dirs: map[string]*walked{},
		armed: map[string]bool{}, dirty: map[string]bool{}, wake: make(chan struct{}, 1), table: cfg.Watches,
		state: ConnState{Phase: Connected, Server: conn.zk.Server(), Session: conn.SessionID(), Since: time.Now()}}
	go w.run(ctx)
	return w
}

// Events returns the watcher's events. They must be read: the watcher
// waits for its reader, gathering changes meanwhile.
func (w *Watcher) Events() <-chan Event { return w.events }

func (w *Watcher) run(ctx context.Context) {
	defer close(w.events)
	var trackConn sync.WaitGroup
	if !w.cfg.Once {
		trackConn.Add(1)
		go func() { defer trackConn.Done(); w.trackConn(ctx) }()
		if every := w.cfg.EnrichEvery; every >= 0 {
			if every == 0 {
				every = defaultEnrichEvery
			}
			trackConn.Add(1)
			go func() { defer trackConn.Done(); w.enrichLoop(ctx, every) }()
		}
		defer trackConn.Wait()
	}
	w.emit(ctx, Event{Kind: EventConn, At: time.Now(), Conn: w.connState()})
	w.sync(ctx)
	if w.cfg.Once {
		return
	}
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
		dirty, resync, reanalyze := w.dirty, w.resync, w.reanalyze
		w.dirty, w.resync, w.reanalyze = map[string]bool{}, false, false
		w.mu.Unlock()
		switch {
		case resync:
			if !w.awaitSession(ctx) {
				return
			}
			w.sync(ctx)
		case reanalyze:
			w.refresh(ctx, dirty)
			w.analyzeAll(ctx)
		default:
			w.refresh(ctx, dirty)
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

func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// await waits for the watch on path to fire and marks path for reading.
func (w *Watcher) await(path string, ch <-chan zk.Event) {
	ev := <-ch
	w.mu.Lock()
	delete(w.armed, path)
	switch {
	case ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired):
		w.resync = true
	case ev.Type == zk.EventNotWatching:
		// The connection was closed: nothing more to read.
		w.mu.Unlock()
		return
	default:
		w.dirty[path] = true
	}
	w.mu.Unlock()
	w.poke()
}

// children lists path's children, arming a children watch unless one is
// already pending: re-arming would only duplicate the notification.
func (w *Watcher) children(path string) ([]string, *zk.Stat, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	w.mu.Lock()
	arm := !w.cfg.Once && !w.armed[path]
	if arm {
		w.armed[path] = true
	}
	w.mu.Unlock()
	if !arm {
		return w.conn.zk.Children(w.conn.abs(path))
	}
	names, stat, ch, err := w.conn.zk.ChildrenW(w.conn.abs(path))
	if err != nil {
		w.mu.Lock()
		delete(w.armed, path)
		w.mu.Unlock()
		return nil, nil, err
	}
	go w.await(path, ch)
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
func (w *Watcher) read(path, name string) (lockcore.Node, error) { return w.conn.getNode(path, name) }

// SetWatchTable gives the watcher the servers' latest watch table (nil when
// unknown); every lock is analysed again against it.
func (w *Watcher) SetWatchTable(t *lockcore.WatchTable) {
	w.mu.Lock()
	w.table, w.reanalyze = t, true
	w.mu.Unlock()
	w.poke()
}
