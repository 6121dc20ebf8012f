package exporter

import (
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

var (
	lockLabels = []string{"path", "recipe"}

	descHolders = prometheus.NewDesc("zklocks_lock_holders",
		"Participants holding the lock (leases, for a semaphore), as of the watcher's last reading.", lockLabels, nil)
	descWaiters = prometheus.NewDesc("zklocks_lock_waiters",
		"Participants waiting for the lock, counting the hidden waiters of a plain lock node.", lockLabels, nil)
	descOldest = prometheus.NewDesc("zklocks_lock_oldest_hold_seconds",
		"The longest hold known among the lock's holders, from their grants (a hold whose grant is not known counts "+
			"for its lower bound only, often 0); 0 with no holder.", lockLabels, nil)
	descOldestAtMost = prometheus.NewDesc("zklocks_lock_oldest_hold_at_most_seconds",
		"The longest the lock's holders may have held: each hold's upper bound, the node's age where the grant "+
			"is not known; 0 with no holder.", lockLabels, nil)
	descOldestWait = prometheus.NewDesc("zklocks_lock_oldest_wait_seconds",
		"How long the lock's oldest waiter has waited, from its node's creation (exact, where a hold often cannot be dated); "+
			"0 with no waiter. A leader election's candidates wait by design: filter on recipe.", lockLabels, nil)
	descAnomalies = prometheus.NewDesc("zklocks_lock_anomalies",
		"Anomalies the analysis found in the lock, by kind (wait-cycle, unwatched-waiter, ...).", append(lockLabels, "kind"), nil)
	descAssumed = prometheus.NewDesc("zklocks_lock_assumed",
		"1 for a lock no rule book entry describes, read by the fallback rule: its roles, modes and watches, and so its "+
			"anomalies, rest on an assumption (zklocks explain PATH says which). Absent for every other lock.", lockLabels, nil)
	descGrants = prometheus.NewDesc("zklocks_lock_grants_total",
		"Grants seen since the lock got series of its own.", lockLabels, nil)
	descReleases = prometheus.NewDesc("zklocks_lock_releases_total",
		"Releases (a holder's node gone) seen since the lock got series of its own.", lockLabels, nil)
	descFIFO = prometheus.NewDesc("zklocks_lock_fifo_breaks_total",
		"Grants of an exclusive lock that overtook an earlier waiter.", lockLabels, nil)
	descHolder = prometheus.NewDesc("zklocks_lock_holder_info",
		"1 for each holder of the lock: its session, its client's address and the member it is connected to, as the "+
			"members' connections (cons, or the AdminServer's connections) name them; client is \"\" when no member does.",
		append(lockLabels, "session", "client", "member"), nil)

	descSilent = prometheus.NewDesc("zklocks_lock_holder_silent_seconds",
		"For each holder whose connection stands but whose member has heard nothing from it for more than a third of its "+
			"session timeout (frozen: a GC pause, SIGSTOP, a stalled VM): how long at least, as of the member's last answer.",
		append(lockLabels, "session"), nil)
	descUntold = prometheus.NewDesc("zklocks_untold_holders",
		"Holders whose holds expired with their sessions while their clients may still believe they hold (not seen to queue again).", nil, nil)
	descExpiries = prometheus.NewDesc("zklocks_contender_expiries_total",
		"Contenders whose nodes went with their sessions (expired), as the members' answers after told.", nil, nil)

	descFolded = prometheus.NewDesc("zklocks_folded_locks",
		"Locks without series of their own (past --max-locks or not matching --path), counted in the zklocks_folded_* totals.", nil, nil)
	descFoldedHolders = prometheus.NewDesc("zklocks_folded_holders", "Holders of the folded locks, in all.", nil, nil)
	descFoldedWaiters = prometheus.NewDesc("zklocks_folded_waiters", "Waiters of the folded locks, in all.", nil, nil)
	descFoldedAnomaly = prometheus.NewDesc("zklocks_folded_anomalies", "Anomalies of the folded locks, by kind.", []string{"kind"}, nil)
	descFoldedWait    = prometheus.NewDesc("zklocks_folded_oldest_wait_seconds",
		"The longest any waiter of a folded lock has waited, leader elections aside.", nil, nil)
	descFoldedGrants   = prometheus.NewDesc("zklocks_folded_grants_total", "Grants of locks while they were folded.", nil, nil)
	descFoldedReleases = prometheus.NewDesc("zklocks_folded_releases_total", "Releases of locks while they were folded.", nil, nil)
	descFoldedFIFO     = prometheus.NewDesc("zklocks_folded_fifo_breaks_total", "FIFO breaks of locks while they were folded.", nil, nil)

	descLocks   = prometheus.NewDesc("zklocks_locks", "Locks known under the roots, folded or not.", nil, nil)
	descPending = prometheus.NewDesc("zklocks_contenders_pending",
		"Contenders listed but not read yet, whose holds and waits count in no other figure until read.", nil, nil)
	descUp = prometheus.NewDesc("zklocks_up",
		"1 while the exporter's ZooKeeper session is connected and its picture confirmed by a sync; 0 while it connects, reconnects or re-syncs.", nil, nil)
	descSyncAge = prometheus.NewDesc("zklocks_last_sync_age_seconds",
		"Seconds since every lock was last confirmed read (since the exporter started, before the first sync).", nil, nil)
	descWatches  = prometheus.NewDesc("zklocks_watches", "Watches the exporter holds on the servers.", nil, nil)
	descComplete = prometheus.NewDesc("zklocks_discovery_complete",
		"1 when a walk of the whole tree has ended since the last (re)sync, so every lock is known; 0 while locks whose contenders are all persistent may be missing.", nil, nil)
	descDenied = prometheus.NewDesc("zklocks_denied_paths",
		"Paths whose ACL denies the exporter's session: not searched, so locks below them are not known (0 when none).", nil, nil)
	descWordBytes = prometheus.NewDesc("zklocks_fourletter_bytes_last_minute",
		"Bytes of the four-letter words' answers from each ensemble member over the last minute.", []string{"member"}, nil)
	descWordSeconds = prometheus.NewDesc("zklocks_fourletter_seconds_last_minute",
		"Seconds the four-letter words took each ensemble member over the last minute (an upper bound of its own time).", []string{"member"}, nil)
)

// Describe sends every family's description.
func (e *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSilent, descUntold, descExpiries, descHolder, descHolders, descWaiters, descOldest, descOldestAtMost, descOldestWait, descAnomalies, descAssumed, descGrants, descReleases, descFIFO,
		descFolded, descFoldedHolders, descFoldedWaiters, descFoldedAnomaly, descFoldedWait, descFoldedGrants, descFoldedReleases, descFoldedFIFO,
		descLocks, descPending, descUp, descSyncAge, descWatches, descComplete, descDenied, descWordBytes, descWordSeconds} {
		ch <- d
	}
	e.wait.Describe(ch)
	e.hold.Describe(ch)
}

// Collect sends the metrics of the picture as of now: each admitted
// lock's series, the folded locks' totals, and the watcher's own.
func (e *Exporter) Collect(ch chan<- prometheus.Metric) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := sink(ch)
	s := e.state
	paths := make([]string, 0, len(s.Locks))
	for p := range s.Locks {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	folded := foldedLocks{kinds: map[lockcore.AnomalyKind]int{}}
	for _, p := range paths {
		l := s.Locks[p]
		// Holds and waits grow while nothing is read, as long as the
		// picture is current; a stale one is given as it was last read.
		asOf := l.ReadAt
		if !s.Stale() {
			asOf = e.now()
		}
		_, wait, _ := l.OldestWaiter(asOf)
		if !e.admitted[p] {
			folded.add(l, wait)
			continue
		}
		e.collectLock(out, p, l, asOf, wait)
	}
	e.collectFolded(out, folded)
	e.collectWatcher(out)
	e.wait.Collect(ch)
	e.hold.Collect(ch)
}

// sink is a collection's channel, which constant metrics are sent to.
type sink chan<- prometheus.Metric

func (ch sink) gauge(d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}

func (ch sink) counter(d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
}

// collectLock sends the series of the lock at path p, read as of asOf,
// whose oldest waiter has waited wait.
func (e *Exporter) collectLock(out sink, p string, l *lockcore.Lock, asOf time.Time, wait time.Duration) {
	s := e.state
	labels := []string{p, string(e.recipeOf(p))}
	out.gauge(descHolders, float64(l.Holders()), labels...)
	seen := map[int64]bool{} // one session can hold twice (a read lock taken twice): one series
	for _, h := range l.Participants {
		if h.Role == lockcore.RoleHolder && h.Session != 0 && !seen[h.Session] {
			seen[h.Session] = true
			c := s.Client(h.Session)
			out.gauge(descHolder, 1, append(labels, lockcore.SessionHex(h.Session), c.Addr, c.Server)...)
			if sl := s.Link(h.Session).Silent; sl.For > 0 {
				out.gauge(descSilent, sl.For.Seconds(), append(labels, lockcore.SessionHex(h.Session))...)
			}
		}
	}
	out.gauge(descWaiters, float64(l.Waiters()), labels...)
	known, atMost := l.KnownHold(asOf)
	out.gauge(descOldest, known.Seconds(), labels...)
	out.gauge(descOldestAtMost, atMost.Seconds(), labels...)
	out.gauge(descOldestWait, wait.Seconds(), labels...)
	kinds := map[lockcore.AnomalyKind]int{}
	for _, a := range l.Anomalies {
		kinds[a.Kind]++
	}
	for _, k := range lockcore.AnomalyKinds() {
		if n := kinds[k]; n > 0 {
			out.gauge(descAnomalies, float64(n), append(labels, string(k))...)
		}
	}
	if len(l.Assumed) > 0 {
		out.gauge(descAssumed, 1, labels...)
	}
	c := e.counts[p]
	out.counter(descGrants, c.grants, labels...)
	out.counter(descReleases, c.releases, labels...)
	out.counter(descFIFO, c.fifoBreaks, labels...)
}

// foldedLocks sums up the locks without series of their own.
type foldedLocks struct {
	locks, holders, waiters int
	// wait is the longest wait among them, leader elections aside.
	wait  time.Duration
	kinds map[lockcore.AnomalyKind]int
}

// add counts l, whose oldest waiter has waited wait, among the folded.
func (f *foldedLocks) add(l *lockcore.Lock, wait time.Duration) {
	f.locks++
	f.holders += l.Holders()
	f.waiters += l.Waiters()
	for _, a := range l.Anomalies {
		f.kinds[a.Kind]++
	}
	if !l.Elects() {
		f.wait = max(f.wait, wait)
	}
}

// collectFolded sends the folded locks' totals and counters.
func (e *Exporter) collectFolded(out sink, f foldedLocks) {
	out.gauge(descFolded, float64(f.locks))
	out.gauge(descFoldedHolders, float64(f.holders))
	out.gauge(descFoldedWaiters, float64(f.waiters))
	for _, k := range lockcore.AnomalyKinds() {
		out.gauge(descFoldedAnomaly, float64(f.kinds[k]), string(k))
	}
	out.gauge(descFoldedWait, f.wait.Seconds())
	out.counter(descFoldedGrants, e.folded.grants)
	out.counter(descFoldedReleases, e.folded.releases)
	out.counter(descFoldedFIFO, e.folded.fifoBreaks)
}

// collectWatcher sends what the watcher itself says: untold holders,
// expiries, the locks known and pending, whether it is up and synced,
// its watches and what the members' answers cost.
func (e *Exporter) collectWatcher(out sink) {
	s := e.state
	out.gauge(descUntold, float64(len(s.Untold)))
	out.counter(descExpiries, float64(s.Expiries))
	out.gauge(descLocks, float64(len(s.Locks)))
	out.gauge(descPending, float64(s.Pending()))
	out.gauge(descUp, boolFloat(s.Conn.Phase == zkwatch.Connected && !s.LastSync.IsZero() && !e.resyncing()))
	since := e.started
	if !s.LastSync.IsZero() {
		since = s.LastSync
	}
	out.gauge(descSyncAge, max(e.now().Sub(since).Seconds(), 0))
	out.gauge(descWatches, float64(s.Discovery.Watching))
	out.gauge(descComplete, boolFloat(s.Discovery.Complete))
	out.gauge(descDenied, float64(len(s.Denied)))
	for _, m := range s.Cost {
		out.gauge(descWordBytes, float64(m.Bytes), m.Member)
		out.gauge(descWordSeconds, m.Time.Seconds(), m.Member)
	}
}

// resyncing reports whether the picture is being rebuilt: the connection
// came back after the last sync, so the locks may be out of date until
// the next one.
func (e *Exporter) resyncing() bool {
	return e.state.Conn.Since.After(e.state.LastSync)
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
