// Package exporter turns the live watcher's events into Prometheus
// metrics: per lock (labels path and recipe) its holders, waiters, oldest
// hold and anomalies by kind, grants, releases and FIFO breaks counted
// from the event history, the time from join to grant and the hold time
// as histograms, and the exporter's own health: whether its session is up,
// the time since its last confirmed sync, the watches it holds, whether
// its discovery is complete, and what its four-letter words cost each
// ensemble member.
//
// An Exporter is fed events (Apply) by whoever reads the watcher and is
// collected by a prometheus.Registry; it does no I/O of its own, so it can
// be tested without ZooKeeper. It never writes to ZooKeeper: it only reads
// what the watcher saw.
//
// Cardinality is bounded: only locks whose path matches Options.Paths get
// series of their own, at most Options.MaxLocks of them, admitted first
// come first served and kept while the lock exists (so series do not flap
// as other locks come and go). The rest are folded into totals without a
// path label, and zklocks_folded_locks says how many.
package exporter

import (
	"regexp"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// DefaultMaxLocks is how many locks get series of their own by default:
// with about eight series each, a few thousand series in all.
const DefaultMaxLocks = 500

// Options configure an Exporter.
type Options struct {
	// MaxLocks is the most locks with series of their own; 0 means
	// DefaultMaxLocks, negative none.
	MaxLocks int
	// Paths, when not empty, are the lock paths that may have series of
	// their own: a lock whose path matches none is folded.
	Paths []*regexp.Regexp
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Exporter is a prometheus.Collector of what the watcher's events say. It
// is safe for concurrent use: Apply from the reader of the events,
// Collect from the HTTP handlers.
type Exporter struct {
	opts    Options
	now     func() time.Time
	started time.Time

	mu    sync.Mutex
	state *model.State
	// admitted are the locks with series of their own.
	admitted map[string]bool
	// recipe is each lock's last recipe other than empty, so that a lock
	// whose contenders all left keeps its series.
	recipe map[string]lockcore.Recipe
	// counts are the admitted locks' counters; folded the others'.
	counts map[string]*lockCounts
	folded lockCounts
	// joined and granted remember when a contender joined and when it was
	// granted, for the histograms; an entry goes when its node does.
	joined, granted map[contender]time.Time

	wait, hold *prometheus.HistogramVec
}

// lockCounts are a lock's counters from the event history.
type lockCounts struct{ grants, releases, fifoBreaks float64 }

// contender tells contenders apart across history entries.
type contender struct {
	lock, node string
	session    int64
}

// New returns an Exporter with an empty picture: up is 0 until the first
// sync.
func New(opts Options) *Exporter {
	if opts.MaxLocks == 0 {
		opts.MaxLocks = DefaultMaxLocks
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	buckets := []float64{.001, .005, .01, .05, .1, .5, 1, 5, 10, 30, 60, 300, 900, 3600}
	return &Exporter{
		opts: opts, now: now, started: now(),
		state: model.NewState(), admitted: map[string]bool{}, recipe: map[string]lockcore.Recipe{},
		counts: map[string]*lockCounts{}, joined: map[contender]time.Time{}, granted: map[contender]time.Time{},
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "zklocks_wait_seconds",
			Help:    "Time from a contender joining a lock's queue to its grant, by recipe (contenders seen joining only).",
			Buckets: buckets}, []string{"recipe"}),
		hold: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "zklocks_hold_seconds",
			Help:    "Time from a grant to the holder's release, by recipe (grants seen only).",
			Buckets: buckets}, []string{"recipe"}),
	}
}

// Apply moves the picture forward by one watcher event and counts what
// its history entries say.
func (e *Exporter) Apply(ev zkwatch.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	before := e.state.Logged
	e.state.Apply(ev)
	switch ev.Kind {
	case zkwatch.EventLock:
		if ev.Lock.Recipe != lockcore.RecipeEmpty {
			e.recipe[ev.Path] = ev.Lock.Recipe
		}
		e.admit(ev.Path)
	case zkwatch.EventLockGone:
		defer e.forget(ev.Path)
	}
	h := e.state.History
	n := min(e.state.Logged-before, len(h))
	for _, entry := range h[len(h)-n:] {
		e.count(entry)
	}
}

// admit gives path series of its own if it may have them and there is
// room; a lock admitted stays so until it is gone.
func (e *Exporter) admit(path string) {
	if e.admitted[path] || e.opts.MaxLocks < 0 || len(e.admitted) >= e.opts.MaxLocks || !e.selected(path) {
		return
	}
	e.admitted[path] = true
	e.counts[path] = &lockCounts{}
}

// selected reports whether path matches Options.Paths (every path does
// when there are none).
func (e *Exporter) selected(path string) bool {
	if len(e.opts.Paths) == 0 {
		return true
	}
	for _, re := range e.opts.Paths {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// forget drops a lock that is gone: its series end.
func (e *Exporter) forget(path string) {
	delete(e.admitted, path)
	delete(e.counts, path)
	delete(e.recipe, path)
}

// count adds one history entry to the counters and histograms.
func (e *Exporter) count(h model.HistoryEntry) {
	if h.Change == model.Expired {
		// Our session expired: what follows is a new picture, and the
		// contenders remembered may never be seen to leave.
		clear(e.joined)
		clear(e.granted)
		return
	}
	c := e.counts[h.Lock]
	if c == nil {
		c = &e.folded
	}
	k := contender{h.Lock, h.Node, h.Session}
	recipe := string(e.recipeOf(h.Lock))
	switch h.Change {
	case model.Joined:
		e.joined[k] = h.At
	case model.Granted:
		c.grants++
		if h.OutOfOrder {
			c.fifoBreaks++
		}
		if at, ok := e.joined[k]; ok {
			e.wait.WithLabelValues(recipe).Observe(max(h.At.Sub(at), 0).Seconds())
			delete(e.joined, k)
		}
		e.granted[k] = h.At
	case model.Released:
		c.releases++
		if at, ok := e.granted[k]; ok {
			e.hold.WithLabelValues(recipe).Observe(max(h.At.Sub(at), 0).Seconds())
		}
		delete(e.granted, k)
		delete(e.joined, k)
	case model.Left:
		delete(e.joined, k)
		delete(e.granted, k)
	}
}

// recipeOf is the recipe label of the lock at path: its recipe, or the
// last one it had while it had contenders.
func (e *Exporter) recipeOf(path string) lockcore.Recipe {
	if r, ok := e.recipe[path]; ok {
		return r
	}
	if l := e.state.Locks[path]; l != nil {
		return l.Recipe
	}
	return lockcore.RecipeUnknown
}
