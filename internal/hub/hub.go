// Package hub shares one watcher per cluster among the viewers of
// zklocks serve: every session on a cluster reads the pictures (copies of
// one model.State) that one hub publishes from one connection's watcher,
// so that the ensemble pays for one zklocks however many people look.
// Clusters starts a hub with its first viewer and stops it a while after
// the last left; a cluster under the two-person rule has its Board of
// requests waiting for approval. It knows nothing of SSH: the server that
// hands a Feed to each session is internal/serve's.
package hub

import (
	"context"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// publishEvery bounds how often a hub makes a new picture for its
// sessions: each is a copy of the state's maps, and no screen is drawn
// more often than 20 times a second. On a cluster so large that copying
// takes longer than publishEvery/pictureShare, pictures are spaced
// further, so that making them costs at most 1/pictureShare of a core
// (BenchmarkSnapshot: 3.6 ms for 10,000 locks and a full event log).
const (
	publishEvery = 50 * time.Millisecond
	pictureShare = 20
)

// Cluster is one context, connected, as the command line dials it.
type Cluster struct {
	// Conn is the connection the hub watches through, and that sessions
	// read nodes and act through. The hub closes it when it stops.
	Conn *zkwatch.Conn
	// Watch is how to watch it (roots, watch mode, analysis).
	Watch zkwatch.WatchConfig
	// ReadOnly: the context is read-only, for every role.
	ReadOnly bool
	// Timeout bounds a node's read.
	Timeout time.Duration
	// NewSession dials a session of an acquisition's own (see
	// model.Actions.NewSession).
	NewSession func(ctx context.Context) (lockclient.ZK, func(), error)
	// History, when not nil, records every event of the shared watcher;
	// each session replays its last hour with R. The hub closes it when
	// it stops.
	History *recording.History
	// HistoryFailed hears why the history stopped recording (a full
	// disk), once; the sessions go on without it.
	HistoryFailed func(error)
	// Follow, when set, runs while the watcher does and tells the actions
	// made elsewhere on this host (its audit log: the CLI's, a UI's), so
	// that the state and the history tell a force-release made there as
	// one; it returns when ctx ends.
	Follow func(ctx context.Context, tell func(lockcore.Action))
	// Approve turns on the two-person rule (a context with approve: 2):
	// an operator's force-release, revoke or fence waits until another
	// person approves it, for at most ApproveWithin.
	Approve       bool
	ApproveWithin time.Duration
}

// defaultApproveWithin is how long a request waits for its approval when
// Cluster.ApproveWithin is not set.
const defaultApproveWithin = 10 * time.Minute

// Dialer connects to a context by name; its errors are said to the user
// who asked for it, so they must not quote secrets.
type Dialer func(ctx context.Context, name string) (Cluster, error)

// hub is one cluster watched for every session on it: one watcher, whose
// events one goroutine applies to one model.State, copied for the
// sessions (Feed) at most every publishEvery. A picture once published is
// never changed, so that a session reads it without locks while the next
// is made.
type hub struct {
	name    string
	cluster Cluster
	w       *zkwatch.Watcher
	// actions are what the sessions' operators did, merged into the
	// watcher's events ahead of the state and the history.
	actions *model.ActionFeed
	// board holds the requests under the two-person rule; nil when the
	// cluster does not require it.
	board  *Board
	cancel context.CancelFunc
	// histFailed: the history stopped at its first failure (run's own).
	histFailed bool
	done       chan struct{} // closed once the watcher has stopped

	mu     sync.Mutex
	state  *model.State // the latest picture published
	feeds  map[*Feed]struct{}
	closed bool // the watcher stopped: no picture will follow
}

// startHub watches c and publishes its first (empty) picture at once.
func startHub(name string, c Cluster) *hub {
	ctx, cancel := context.WithCancel(context.Background())
	h := &hub{name: name, cluster: c, cancel: cancel, done: make(chan struct{}),
		state: model.NewState(), feeds: map[*Feed]struct{}{}}
	if c.Approve {
		within := c.ApproveWithin
		if within <= 0 {
			within = defaultApproveWithin
		}
		h.board = newBoard(within)
	}
	h.w = zkwatch.Watch(ctx, c.Conn, c.Watch)
	h.actions = model.NewActionFeed()
	if c.Follow != nil {
		go c.Follow(ctx, h.actions.TellAudited)
	}
	go h.run(h.actions.Merge(ctx, h.w.Events()))
	return h
}

// run applies every event to the hub's own state, and publishes a
// snapshot of it publishEvery (or longer, see pictureShare) after the
// first event not published yet, and each second when ageing changed it
// (long-held, waits).
func (h *hub) run(events <-chan zkwatch.Event) {
	defer close(h.done)
	state := model.NewState()
	age := time.NewTicker(time.Second)
	defer age.Stop()
	pub := time.NewTimer(publishEvery)
	pub.Stop()
	pending := false
	every := publishEvery
	publish := func(last bool) {
		start := time.Now()
		snap := state.Snapshot()
		every = max(publishEvery, pictureShare*time.Since(start))
		h.publish(snap, last)
	}
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				publish(true)
				return
			}
			if hist := h.cluster.History; hist != nil && !h.histFailed {
				// A history that failed (a full disk) stops recording;
				// the sessions go on.
				if err := hist.Write(ev); err != nil {
					h.histFailed = true
					if h.cluster.HistoryFailed != nil {
						h.cluster.HistoryFailed(err)
					}
				}
			}
			state.Apply(ev)
			if !pending {
				pending = true
				pub.Reset(every)
			}
		case <-pub.C:
			pending = false
			publish(false)
		case now := <-age.C:
			if state.AgeTo(now) && !pending {
				pending = true
				pub.Reset(0)
			}
		}
	}
}

// publish makes s the latest picture and tells every feed; last says the
// watcher stopped.
func (h *hub) publish(s *model.State, last bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.state = s
	h.closed = last
	for f := range h.feeds {
		if last {
			close(f.changed)
			delete(h.feeds, f)
			continue
		}
		select {
		case f.changed <- struct{}{}:
		default: // already told, not read yet
		}
	}
}

// join adds a feed; nil once the watcher has stopped.
func (h *hub) join() *Feed {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	f := &Feed{h: h, changed: make(chan struct{}, 1)}
	h.feeds[f] = struct{}{}
	return f
}

// leave removes f, and ends what waits on it.
func (h *hub) leave(f *Feed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.feeds[f]; ok {
		delete(h.feeds, f)
		close(f.changed)
	}
}

// stop ends the watcher, waits for it, and closes the connection. Every
// session's actions must have been closed first (Feed.Close).
func (h *hub) stop() {
	if h.board != nil {
		h.board.close()
	}
	h.cancel()
	<-h.done
	h.cluster.Conn.Close()
	if h.cluster.History != nil {
		h.cluster.History.Close()
	}
}

// Feed is one viewer of a cluster's shared picture: it implements
// ui.Shared, and carries what a session acts and reads through. Close it
// when the session leaves the cluster.
type Feed struct {
	h       *hub
	changed chan struct{}
	once    sync.Once
	leave   func(*Feed) // the registry's, which may stop the hub later
}

// State is the latest picture; it is never changed.
func (f *Feed) State() *model.State {
	f.h.mu.Lock()
	defer f.h.mu.Unlock()
	return f.h.state
}

// Changed receives when a newer picture is there, and closes when the
// feed is closed or the watcher stopped.
func (f *Feed) Changed() <-chan struct{} { return f.changed }

// Name is the context's name.
func (f *Feed) Name() string { return f.h.name }

// Cluster is the connection and settings the hub watches.
func (f *Feed) Cluster() Cluster { return f.h.cluster }

// Board is the cluster's two-person rule, the requests that wait for
// another person's approval; nil when the cluster does not require it.
func (f *Feed) Board() *Board { return f.h.board }

// Focus tells the shared watcher the lock a session opened, for the
// servers' watch table when it can be read for one lock only: the last
// session to open a lock decides, and the picture says which lock the
// table was read for (model.State.WatchesFor).
func (f *Feed) Focus(lockPath string) { f.h.w.Focus(lockPath) }

// Told passes an operator's action on among the shared watcher's events,
// so that every session's picture, and the history, say which holds were
// ended by whom.
func (f *Feed) Told(a lockcore.Action) { f.h.actions.Tell(a) }

// Close leaves the cluster; the hub stops a while after its last feed
// closed.
func (f *Feed) Close() {
	f.once.Do(func() {
		f.h.leave(f)
		if f.leave != nil {
			f.leave(f)
		}
	})
}
