package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// enrichState is what the enrich loop and the tracking tell each other.
// enrichLoop gives the watch table it read (SetWatchTable), against which
// run's rounds and fillLoop analyse the locks they store; those stores
// count the locks first tracked (lockGen) and wake enrichLoop for them
// (lockFound), so that the table is soon read again with their watches.
// The callers of Focus name the lock the operator looks at, whose watches
// enrichLoop reads even over the budget and whose contenders fillLoop
// reads first.
type enrichState struct {
	table     *lockcore.WatchTable // nil when unknown
	focus     string               // the lock the operator looks at
	lockGen   uint64               // grows whenever a lock is first tracked
	lockFound chan struct{}        // wakes enrichLoop when a lock is first tracked
}

// defaultEnrichEvery is how often the servers are asked about themselves
// when WatchConfig.EnrichEvery is zero.
const defaultEnrichEvery = 5 * time.Second

// enrichLoop asks every ensemble member for its four-letter words each
// period, reports what they said, and gives the watch table to the
// analysis when it changed. Refused words are asked once (the Enricher
// remembers), so a locked-down cluster costs one srvr per member per period.
func (w *Watcher) enrichLoop(ctx context.Context, every time.Duration) {
	// Every member is asked, not only those the connect string names: a
	// session's watches are known only to the member it is connected to.
	ensemble := w.conn.Members(ctx)
	e := NewEnricher(ensemble.Servers, every)
	e.Missing = ensemble.Missing
	e.Admin = w.conn.admin
	e.TLS, e.Mode, e.Budget, e.Costs, e.Interest, e.Focus = w.conn.TLS(), w.cfg.WatchMode, w.cfg.WatchBudget, w.costs, w.interest, w.focusInterest
	var last *lockcore.WatchTable
	var lastGen uint64
	hosts := newNames()
	first := true
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		polled := time.Now()
		pollCtx, cancel := context.WithTimeout(ctx, every)
		en := e.Poll(pollCtx).WithinChroot(w.conn.target.Chroot).Without(w.conn.SessionID())
		cancel()
		if ctx.Err() != nil {
			return
		}
		en.Clients = hosts.named(en.Clients)
		w.emit(ctx, Event{Kind: EventServers, At: en.At, Servers: en.Servers, Clients: en.Clients,
			ClientsComplete: en.Complete, ClientsAsked: en.ClientsAsked, ClientsNote: en.ClientsNote, Note: en.WatchesNote,
			WatchesAt: en.WatchesAt, WatchesFor: en.WatchesFor, Cost: w.costs.Snapshot()})
		table := en.Watches.AsOf(en.WatchesZxid).Scoped(en.Covers)

		// The same watches may cover more locks than before: a table read
		// since a lock was found holds its watches, or their absence.
		if first || !table.Equal(last) || en.CoversGen != lastGen {
			w.SetWatchTable(table)
			last, lastGen, first = table, en.CoversGen, false
		}
		early, ok := w.nextPoll(ctx, tick.C, every, polled)
		if !ok {
			return
		}
		if early {
			e.AskSoon()
		}
	}
}

// foundSettle is how long the enrich loop lets a lock's discovery settle
// (the rest of a walk's or dump's locks come with it) before it reads the
// watch table for them, and earlyGap the least time between two polls
// that locks found call early.
const (
	foundSettle = 100 * time.Millisecond
	earlyGap    = time.Second
)

// nextPoll waits for the next period, or for locks first tracked since
// the last poll, which was at last: the table read before they were found
// holds none of their watches, and their waiters would be judged by the
// recipes' rules alone until the next period ("watches: recipe" on a
// table that can be read). Such early polls come at most every earlyGap
// (or every, if shorter); what they ask beyond srvr is paced by its cost
// as always. It reports whether the poll is early, and false for ok when
// ctx ends.
func (w *Watcher) nextPoll(ctx context.Context, tick <-chan time.Time, every time.Duration, last time.Time) (early, ok bool) {
	select {
	case <-ctx.Done():
		return false, false
	case <-tick:
		return false, true
	case <-w.enrich.lockFound:
	}
	wait := max(foundSettle, time.Until(last.Add(min(earlyGap, every))))
	settle := time.NewTimer(min(wait, every))
	defer settle.Stop()
	select {
	case <-ctx.Done():
		return false, false
	case <-tick:
		return false, true
	case <-settle.C:
		return true, true
	}
}

// interest is the part of the servers' watch table the analysis can use:
// watches on paths inside the locks tracked (server paths).
func (w *Watcher) interest() Interest {
	w.mu.Lock()
	defer w.mu.Unlock()
	parts := make(map[string]bool, len(w.tracked.owner))
	locks := make(map[string]bool, len(w.tracked.locks))
	for p := range w.tracked.owner {
		parts[p] = true
	}
	for p := range w.tracked.locks {
		locks[p] = true
	}
	in := w.conn.interestIn(parts, locks)
	in.Gen = w.enrich.lockGen
	return in
}

// Focus names the lock the operator is looking at ("" for none). Where the
// servers hold more watches than the budget allows reading on every
// period, their table is still read, paced by its cost, for this lock
// alone: the one whose waiters' watches the operator is judging.
func (w *Watcher) Focus(lockPath string) {
	w.mu.Lock()
	w.enrich.focus = lockPath
	w.mu.Unlock()
}

// focusInterest is the interest in the focused lock alone; the zero
// Interest when no lock is focused or it is not tracked.
func (w *Watcher) focusInterest() Interest {
	w.mu.Lock()
	defer w.mu.Unlock()
	lock := w.enrich.focus
	if lock == "" || w.tracked.locks[lock] == nil {
		return Interest{}
	}
	parts := map[string]bool{}
	for p, l := range w.tracked.owner {
		if l == lock {
			parts[p] = true
		}
	}
	in := w.conn.interestIn(parts, map[string]bool{lock: true})
	in.Lock = lock
	return in
}

// SetWatchTable gives the watcher the servers' latest watch table (nil when
// unknown); every lock is analysed again against it.
func (w *Watcher) SetWatchTable(t *lockcore.WatchTable) {
	w.mu.Lock()
	w.enrich.table, w.next.reanalyze = t, true
	w.mu.Unlock()
	w.poke()
}
