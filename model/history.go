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
	if next != nil {
		for _, p := range next.Participants {
			before, seen := old[keyOf(p)]
			if !seen {
				s.add(at, Joined, next.Path, p, false)
			}
			if p.Role == lockcore.RoleHolder && (!seen || before.Role != lockcore.RoleHolder) {
				s.add(at, Granted, next.Path, p, overtook(next, p))
			}
		}
	}
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
	s.History = append(s.History, HistoryEntry{At: at, Change: c, Lock: lock, Node: p.Node, Session: p.Session,
		Mode: p.Mode, Seq: p.Seq, OutOfOrder: outOfOrder})
	s.Logged++
	if outOfOrder {
		s.FIFOBreaks++
	}
	if c == Granted {
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
