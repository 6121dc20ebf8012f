package model

import (
	"cmp"
	"fmt"
	"sort"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// State is what the operator knows of the cluster: every lock with its
// analysis, the connection, and what could not be seen. Apply moves it
// forward one watcher event at a time; it does no I/O.
//
// Beside the locks, its state is in parts by concern, each declared with
// the methods that use it alone: the syncs (Syncs), what the members said
// (Enrichment), the owner sessions' links (Liveness), the event log
// (EventLog) and the operator's actions (Operations). Their fields are
// the State's own, as s.Servers or s.History.
type State struct {
	Conn zkwatch.ConnState
	// Locks by path; each value is the latest analysis with the
	// anomalies its sessions' links call for (lockcore.WithLinks), never
	// changed in place.
	Locks map[string]*lockcore.Lock
	// Denied are paths whose ACL refused this session.
	Denied map[string]error
	// Errors are the most recent failures, newest last (at most maxErrors).
	Errors []error

	Syncs
	Enrichment
	Liveness
	EventLog
	Operations

	// steady is the span of time over which AgeTo would change no lock.
	steady steadySpan
	// journal lists the paths whose Locks entry changed (LockChanges).
	journal *lockJournal
	// pending counts the contenders of Locks not read yet (Pending).
	pending int
}

// Syncs is when the picture was last confirmed whole, and how locks are
// found.
type Syncs struct {
	// LastSync is when every lock was last confirmed read; zero until the
	// first sync. A picture is stale while the connection is not Connected.
	LastSync time.Time
	// FirstSync is when the first sync completed: the event log, and all
	// that is known of waits and holds, starts there.
	FirstSync time.Time
	// LastChange is when the watcher last reported a lock changed or gone.
	LastChange time.Time
	// Discovery says how locks are found and whether every lock under the
	// roots is known (Discovery.Complete).
	Discovery zkwatch.Discovery
	// unwatched: the connection was lost since the last sync, so what a
	// read shows may have happened while nothing watched.
	unwatched bool
}

const maxErrors = 20

// NewState returns an empty state.
func NewState() *State {
	return &State{Locks: map[string]*lockcore.Lock{}, Denied: map[string]error{},
		Liveness:   Liveness{tracks: map[int64]*sessionTrack{}},
		Operations: Operations{actions: map[contenderKey]*lockcore.Action{}},
		journal:    newLockJournal()}
}

// Apply moves the state forward by one event.
func (s *State) Apply(ev zkwatch.Event) {
	switch ev.Kind {
	case zkwatch.EventConn:
		prev := s.Conn
		s.Conn = ev.Conn
		s.unwatched = s.unwatched || ev.Conn.Phase != zkwatch.Connected
		s.recordConn(prev, ev)
	case zkwatch.EventLock:
		s.logEnds = ev.Ends
		defer func() { s.logEnds = nil }()
		s.trackOwners(ev.Lock, ev.At)
		l := s.withLinks(ev.Lock)
		// Looked up once: a pass over a transaction log applies a reading
		// for each contender's change, and the lookups of a path among
		// thousands of locks were a quarter of the time applying it took.
		prev := s.Locks[ev.Path]
		if !s.LastSync.IsZero() {
			s.record(ev.At, prev, l)
		}
		s.notePending(prev, l)
		s.noteHidden(l)
		s.Locks[ev.Path] = l
		s.noteLock(ev.Path)
		s.ownersMoved = true
		s.steady = steadySpan{}
		s.pruneForced(ev)
		delete(s.Denied, ev.Path)
		s.LastChange = later(s.LastChange, ev.At)
	case zkwatch.EventLockGone:
		s.logEnds = ev.Ends
		defer func() { s.logEnds = nil }()
		prev := s.Locks[ev.Path]
		if !s.LastSync.IsZero() {
			s.record(ev.At, prev, nil)
		}
		s.notePending(prev, nil)
		delete(s.Locks, ev.Path)
		s.noteLock(ev.Path)
		s.ownersMoved = true
		s.LastChange = later(s.LastChange, ev.At)
	case zkwatch.EventDenied:
		s.Denied[ev.Path] = ev.Err
	case zkwatch.EventSynced:
		if s.unwatched {
			s.recordReread(ev)
		}
		s.LastSync, s.Discovery, s.unwatched = ev.At, ev.Discovery, false
		if s.FirstSync.IsZero() {
			s.FirstSync = ev.At
		}
	case zkwatch.EventDiscovery:
		s.Discovery = ev.Discovery
	case zkwatch.EventServers:
		s.Enrichment.take(ev)
		s.recordServers(ev)
		before := s.Links
		if s.updateLinks(ev) {
			s.recordDisconnects(ev, before)
		}
		s.settleEnds(ev)
		s.pruneForced(ev)
	case zkwatch.EventAction:
		s.recordAction(ev)
	case zkwatch.EventError:
		s.Errors = append(s.Errors, ev.Err)
		if len(s.Errors) > maxErrors {
			s.Errors = s.Errors[len(s.Errors)-maxErrors:]
		}
	}
}

// AgeTo redoes, for the locks not read again since, the checks that
// depend on time alone: a holder that has now held past the long-held
// threshold becomes an anomaly although nothing in the tree changed. It
// reports whether any lock's findings changed. A stale picture is left as
// it is: a holder not heard of since the connection dropped may be gone.
func (s *State) AgeTo(now time.Time) bool {
	if s.Stale() {
		return false
	}
	if s.steady.covers(now) {
		return false
	}
	changed := false
	s.steady = steadySpan{from: now, forever: true}
	for p, l := range s.Locks {
		n := l.At(now)
		if n != l {
			s.Locks[p], changed = n, true
			s.noteLock(p)
		}
		if until, ok := n.LongHeldSteadyUntil(now); ok {
			s.steady.until(until)
		}
	}
	return changed
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Stale reports whether the picture may be out of date: the session is not
// connected, or no sync has completed.
func (s *State) Stale() bool { return s.Conn.Phase != zkwatch.Connected || s.LastSync.IsZero() }

// Ghost reports whether session owns nodes yet is connected to no server
// (see Link): an ephemeral that may have outlived its session, or a client
// that is gone while its session lives on. False when that cannot be known.
func (s *State) Ghost(session int64) bool {
	return s.Link(session).State == lockcore.LinkDisconnected
}

// Sort orders for lock lists.
const (
	ByContention = "contention"
	ByAge        = "age"
	ByPath       = "path"
	// BySeverity puts the worst first: the most severe anomaly (see
	// Trouble), then the longest wait, then the most contended.
	BySeverity = "severity"
	// ByWait puts the longest wait first (see LongestWait).
	ByWait = "wait"
)

// SortedLocks returns the locks ordered by: contention (most waiters, then
// most holders, first), age (oldest known hold first, then the locks whose
// holders are not read yet), severity (worst anomaly, then most kinds of
// anomaly, then longest wait, then contention, first), wait (longest-waiting waiter first)
// or path.
func (s *State) SortedLocks(order string) []*lockcore.Lock {
	out := make([]*lockcore.Lock, 0, len(s.Locks))
	for _, l := range s.Locks {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return lockLess(out[i], out[j], order) })
	return out
}

func lockLess(a, b *lockcore.Lock, order string) bool {
	switch order {
	case ByContention:
		if c := contentionCmp(a, b); c != 0 {
			return c < 0
		}
	case ByAge:
		// Known holds first, longest first; then locks whose holders are
		// all not read yet, whose holds are unknown; then no holder.
		oa, knownA, pendingA := OldestHold(a)
		ob, knownB, pendingB := OldestHold(b)
		if knownA != knownB {
			return knownA
		}
		if oa.Max != ob.Max {
			return oa.Max > ob.Max
		}
		if (pendingA > 0) != (pendingB > 0) {
			return pendingA > 0
		}
	case BySeverity:
		// Worst first: the worst anomaly, then the longest wait, then
		// the most contended.
		if ta, tb := Trouble(a), Trouble(b); ta != tb {
			return ta.Worse(tb)
		}
		if c := cmp.Or(waitCmp(a, b), contentionCmp(a, b)); c != 0 {
			return c < 0
		}
	case ByWait:
		if c := waitCmp(a, b); c != 0 {
			return c < 0
		}
	}
	return a.Path < b.Path
}

// contentionCmp puts the lock with more waiters, then more holders, first.
func contentionCmp(a, b *lockcore.Lock) int {
	return cmp.Or(cmp.Compare(b.Waiters(), a.Waiters()), cmp.Compare(b.Holders(), a.Holders()))
}

// waitCmp puts the lock whose waiter has waited longest first, then the
// locks whose waiters are all not read yet, then those without waiter.
func waitCmp(a, b *lockcore.Lock) int {
	wa, oka := LongestWait(a)
	wb, okb := LongestWait(b)
	switch {
	case oka != okb && oka:
		return -1
	case oka != okb:
		return 1
	case !wa.Equal(wb):
		return wa.Compare(wb)
	}
	pa, pb := PendingWaiters(a) > 0, PendingWaiters(b) > 0
	switch {
	case pa == pb:
		return 0
	case pa:
		return -1
	}
	return 1
}

// PartialNote says what a discovery that is not complete may have missed.
func PartialNote(d zkwatch.Discovery) string {
	switch {
	case d.Walking:
		return fmt.Sprintf("still walking the tree (%d reads so far): locks whose contenders are all persistent nodes may be missing", d.WalkReads)
	case !d.DumpAt.IsZero():
		return fmt.Sprintf("locks found from the servers' dump of ephemeral nodes after a walk of %d reads; locks whose contenders are all persistent nodes may be missing (--walk finds them)", d.WalkReads)
	}
	return "the walk did not finish: locks may be missing"
}

// DeniedNote says that n paths whose ACL denies the session were not
// searched: locks below them are not known.
func DeniedNote(n int) string {
	return fmt.Sprintf("%d paths denied to this session, not searched: locks below them are not known", n)
}
