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
	unset     bool                 // Once: a waiter's watch was unknown for its node's age (judgeOnce)
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
	// readAt and readAsOf are when the table read last was read and its
	// stamp, and sinceAsOf the stamp of the one read before it: a waiter
	// whose node is newer than that table may not have set its watch yet
	// (see WatchTable.Since). A table the Enricher reuses keeps its read
	// time and is no new read; one read anew with no write since keeps
	// its zxid and is.
	var readAt time.Time
	var readAsOf, sinceAsOf int64
	hosts := newNames()
	first := true
	var listed map[int64]ClientInfo // the last complete answer's clients
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
		if en.Watches != nil && !en.WatchesAt.Equal(readAt) {
			if !readAt.IsZero() {
				sinceAsOf = readAsOf
			}
			readAt, readAsOf = en.WatchesAt, en.WatchesZxid
		}
		table := en.Watches.AsOf(en.WatchesZxid).Since(sinceAsOf).Scoped(en.Covers)

		// The same watches may cover more locks than before: a table read
		// since a lock was found holds its watches, or their absence.
		if first || !table.Equal(last) || en.CoversGen != lastGen {
			w.SetWatchTable(table)
			last, lastGen, first = table, en.CoversGen, false
		}
		again := lookAgainAt(listed, en, every)
		if en.Complete {
			listed = en.Clients
		}
		// Locks found call an early poll only for the watch table: none
		// when the last picture had none (refused, or over the budget).
		wake, ok := w.nextPoll(ctx, tick.C, every, polled, again, en.Watches != nil)
		if !ok {
			return
		}
		switch wake {
		case wakeTick, wakeFound:
			// A period's poll asks even when an early poll came within
			// the period: otherwise the Enricher, counting its period
			// from that early ask, answered the tick with the early
			// picture, and cons went unread for a period more.
			e.AskSoon()
		case wakeSecondLook:
			e.LookAgain()
		}
	}
}

// lookAgainAt is when the members' connections should be read again
// before the next period: SecondLook after en's were asked, when en is a
// complete answer that lists no longer a session the last complete one
// (before) listed. One such answer is no evidence (the client may be
// handshaking again after a dropped connection), and the state judges a
// session disconnected only on a second complete answer, a second look
// later, that misses it too: asked then rather than a period later, a
// crashed holder is told about as soon as check tells it. The zero time
// when no second look is needed, or the period is no longer.
func lookAgainAt(before map[int64]ClientInfo, en Enrichment, every time.Duration) time.Time {
	if !en.Complete || before == nil || every <= SecondLook {
		return time.Time{}
	}
	for session := range before {
		if _, ok := en.Clients[session]; !ok {
			asked := en.ClientsAsked
			if asked.IsZero() {
				asked = en.At
			}
			return asked.Add(SecondLook)
		}
	}
	return time.Time{}
}

// foundSettle is how long the enrich loop lets a lock's discovery settle
// (the rest of a walk's or dump's locks come with it) before it reads the
// watch table for them, and earlyGap the least time between two polls
// that locks found call early.
const (
	foundSettle = 100 * time.Millisecond
	earlyGap    = time.Second
)

// wake says why the enrich loop polls again.
type wake int

const (
	wakeTick       wake = iota // the period passed
	wakeFound                  // locks were first tracked since the last poll
	wakeSecondLook             // a session the answer before listed was missing
)

// nextPoll waits for the next period, for again (a second look, see
// lookAgainAt; none when zero), or for locks first tracked since the last
// poll, which was at last: the table read before they were found holds
// none of their watches, and their waiters would be judged by the
// recipes' rules alone until the next period ("watches: recipe" on a
// table that can be read). Such early polls come at most every earlyGap
// (or every, if shorter), and only when table (the last picture had a
// watch table): otherwise they would ask every member srvr again for a
// table that cannot be read. What they ask beyond srvr is paced by its
// cost as always. It reports why it woke, and false for ok when ctx ends.
func (w *Watcher) nextPoll(ctx context.Context, tick <-chan time.Time, every time.Duration, last, again time.Time, table bool) (wake, bool) {
	var look <-chan time.Time
	if !again.IsZero() {
		t := time.NewTimer(time.Until(again))
		defer t.Stop()
		look = t.C
	}
	// A lock found starts the settle (found is then nil, and settle set):
	// the tick or the second look may still come first.
	var found <-chan struct{}
	if table {
		found = w.enrich.lockFound
	}
	var settle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return wakeTick, false
		case <-tick:
			return wakeTick, true
		case <-look:
			return wakeSecondLook, true
		case <-settle:
			return wakeFound, true
		case <-found:
			wait := max(foundSettle, time.Until(last.Add(min(earlyGap, every))))
			t := time.NewTimer(min(wait, every))
			defer t.Stop()
			found, settle = nil, t.C
		}
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
