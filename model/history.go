package model

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Change is what happened to one contender, as seen between two readings
// of its lock.
type Change string

// Changes. A release and a session's end look alike in the tree: both
// remove the holder's node.
const (
	Joined   Change = "joined"   // a new contender, queued
	Granted  Change = "granted"  // a contender now holds (new or after waiting)
	Released Change = "released" // a holder's node went
	Left     Change = "left"     // a waiter's node went before it held
	Expired  Change = "expired"  // our own session expired (Lock is empty)
)

// HistoryEntry is one line of the event log.
type HistoryEntry struct {
	At      time.Time
	Change  Change
	Lock    string
	Node    string
	Session int64
	Mode    lockcore.Mode
	Seq     int64
	// OutOfOrder marks a grant that overtook an earlier waiter of an
	// exclusive lock: FIFO broken.
	OutOfOrder bool
	// Reconstructed marks a join (or a grant known exactly) that happened
	// before its lock was found: At is the node's creation time (ctime,
	// by the server's clock), not when it was seen.
	Reconstructed bool
}

// maxHistory is how many entries the event log keeps at least; it may
// hold a quarter more before the oldest are dropped.
const maxHistory = 5000

// record derives history entries from a lock's previous and next analyses.
func (s *State) record(at time.Time, prev, next *lockcore.Lock) {
	old := map[contenderKey]lockcore.Participant{}
	if prev != nil {
		for _, p := range prev.Participants {
			old[keyOf(p)] = p
		}
	}
	now := map[contenderKey]bool{}
	if next != nil {
		for _, p := range next.Participants {
			now[keyOf(p)] = true
		}
	}
	// Releases first: they are what let the grants happen.
	if prev != nil {
		for _, p := range prev.Participants {
			if now[keyOf(p)] {
				continue
			}
			change := Left
			if p.Role == lockcore.RoleHolder {
				change = Released
			}
			s.add(at, change, prev.Path, p, false)
		}
	}
	if next == nil {
		return
	}
	for _, p := range next.Participants {
		before, seen := old[keyOf(p)]
		if seen {
			if p.Role == lockcore.RoleHolder && before.Role != lockcore.RoleHolder {
				s.add(at, Granted, next.Path, p, overtook(next, p))
			}
			continue
		}
		if prev == nil {
			s.recordFound(at, next, p)
			continue
		}
		s.add(at, Joined, next.Path, p, false)
		if p.Role == lockcore.RoleHolder {
			s.add(at, Granted, next.Path, p, overtook(next, p))
		}
	}
}

// recordFound logs a contender of a lock found after the first sync. Its
// node's ctime says when it joined, so the join is logged then, marked
// reconstructed, and so is its grant when the analysis knows it exactly; a
// contender that was there before the first sync is part of the picture
// the log starts from, like the locks found by then, and is not logged.
func (s *State) recordFound(at time.Time, l *lockcore.Lock, p lockcore.Participant) {
	known := p.Ctime.UnixMilli() > 0
	if known && p.Ctime.Before(s.FirstSync) {
		return
	}
	joined := at
	if known && p.Ctime.Before(at) {
		joined = p.Ctime
	}
	s.addEntry(HistoryEntry{At: joined, Change: Joined, Reconstructed: joined != at}, l.Path, p)
	if p.Role != lockcore.RoleHolder {
		return
	}
	granted := at
	if h := p.Hold; h.Exact() && !h.After.Before(joined) && h.After.Before(at) {
		granted = h.After
	}
	s.addEntry(HistoryEntry{At: granted, Change: Granted, OutOfOrder: overtook(l, p), Reconstructed: granted != at}, l.Path, p)
}

// contenderKey tells contenders apart across readings: a plain ephemeral
// lock's successive holders share one path, but each is a new node.
type contenderKey struct {
	path  string
	token int64
}

func keyOf(p lockcore.Participant) contenderKey { return contenderKey{p.Path, p.Token} }

// overtook reports whether granting p in an exclusive lock left an earlier
// sequential contender waiting.
func overtook(l *lockcore.Lock, p lockcore.Participant) bool {
	if p.Mode != lockcore.ModeExclusive || !p.HasSeq {
		return false
	}
	for _, q := range l.Participants {
		if q.Role == lockcore.RoleWaiter && q.HasSeq && q.Seq < p.Seq && q.Recipe == p.Recipe {
			return true
		}
	}
	return false
}

func (s *State) add(at time.Time, c Change, lock string, p lockcore.Participant, outOfOrder bool) {
	s.addEntry(HistoryEntry{At: at, Change: c, OutOfOrder: outOfOrder}, lock, p)
}

// addEntry logs e (its time, change and marks) for contender p of lock.
func (s *State) addEntry(e HistoryEntry, lock string, p lockcore.Participant) {
	e.Lock, e.Node, e.Session, e.Mode, e.Seq = lock, p.Node, p.Session, p.Mode, p.Seq
	s.History = append(s.History, e)
	s.Logged++
	if e.OutOfOrder {
		s.FIFOBreaks++
	}
	if e.Change == Granted {
		s.Grants++
	}
	// Trim in batches: copying the log on every entry once it is full
	// would cost a 5,000-entry copy per event.
	if len(s.History) > maxHistory+maxHistory/4 {
		s.History = append(s.History[:0:0], s.History[len(s.History)-maxHistory:]...)
	}
}

// recordConn logs our own session's expiry.
func (s *State) recordConn(ev zkwatch.Event) {
	if ev.Conn.Phase == zkwatch.Expired {
		s.History = append(s.History, HistoryEntry{At: ev.At, Change: Expired, Session: ev.Conn.Session})
		s.Logged++
	}
}
