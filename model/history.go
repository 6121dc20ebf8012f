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
// remove the holder's node; EndedBy says which it was, where it can.
const (
	Joined   Change = "joined"   // a new contender, queued
	Granted  Change = "granted"  // a contender now holds (new or after waiting)
	Released Change = "released" // a holder's node went
	Left     Change = "left"     // a waiter's node went before it held
	Expired  Change = "expired"  // our own session expired (Lock is empty; see Ours)
	// Disconnected: no member holds a connection for a holder's session
	// any more (its client died or is cut off); the lock stays held until
	// the session expires or the client reconnects.
	Disconnected Change = "disconnected"
	// Silent: a holder's connection stands, but its member has heard
	// nothing from it for more than a third of its session timeout: its
	// process is frozen (lockcore.LiveSilent).
	Silent Change = "silent"
	// Woke: a silent holder's member heard from it again: its process
	// runs again, and still holds.
	Woke Change = "woke"
)

// Ender says who or what ended a hold or a wait (a Released or Left
// entry). The tree does not say who deleted a node; these are what
// zklocks knows of it.
type Ender string

// Enders.
const (
	// EndedByRelease: the node was deleted while its session was
	// connected, or not known to be disconnected: its client released
	// (another session deleting it, other than this zklocks' operator,
	// reads the same).
	EndedByRelease Ender = "release"
	// EndedByOperator: this zklocks' operator deleted it (force-release,
	// fence); the entry's Action is what the operator did.
	EndedByOperator Ender = "operator"
	// EndedByExpiry: the node went with its session: it was connected to
	// no member as the node went, or a complete answer asked after
	// listed it nowhere (another session deleting the node of a session
	// that then expires reads the same). Its client, if it still runs,
	// was not told at once: see State.Untold.
	EndedByExpiry Ender = "expiry"
	// EndedByUnknown: no member's answer since the node went tells
	// whether its session outlived it (a release) or ended with it (an
	// expiry); a later answer may.
	EndedByUnknown Ender = "unknown"
	// EndedByClose: the node went with its session, before the session
	// could have expired (its member had heard from it less than its
	// timeout before): its client closed the session, and knows.
	EndedByClose Ender = "session-close"
	// EndedBySessionEnd: the node went with its session, and nothing
	// tells whether the session expired or its client closed it.
	EndedBySessionEnd Ender = "session-end"
)

// HistoryEntry is one line of the event log.
type HistoryEntry struct {
	At     time.Time
	Change Change
	Lock   string
	Node   string
	// Path is the contender node's own path: under Lock, or, for a
	// single-node lock (Node its own name), Lock itself.
	Path    string
	Session int64
	Mode    lockcore.Mode
	Seq     int64
	// OutOfOrder marks a grant that overtook an earlier waiter of an
	// exclusive lock: FIFO broken.
	OutOfOrder bool
	// Token is the contender's czxid: it tells a plain lock's successive
	// holders apart, and matches an operator's audit line.
	Token int64
	// Seen: At is when zklocks first saw this, not when it happened,
	// which was earlier and is not known: the lock was found, or read
	// again after a lost connection, after the contender joined or was
	// granted. Such times count in no wait or hold figure.
	Seen bool
	// EndedBy says who or what ended a hold or wait (Released, Left), and
	// Action what the operator did when it was zklocks' operator.
	EndedBy Ender
	Action  *lockcore.Action
	// Log is what ZooKeeper's transaction log said of the ending, when
	// the events came from one.
	Log LogEnd
	// Note says, in words, what happened to zklocks' own connection or
	// the ensemble, for the entries that are about them (Change.Ours).
	Note string
	// Reconstructed marks a join (or a grant known exactly) that happened
	// before its lock was found: At is the node's creation time (ctime,
	// by the server's clock), not when it was seen.
	Reconstructed bool
	// Silent, for a Silent entry, is what the member's answer said.
	Silent lockcore.Silent
}

// NodePath is the path of the entry's contender node (Path), or of its
// Node under its Lock for an entry that does not say; empty for an entry
// of no node.
func (h *HistoryEntry) NodePath() string {
	switch {
	case h.Path != "":
		return h.Path
	case h.Node == "":
		return ""
	}
	return lockcore.JoinPath(h.Lock, h.Node)
}

// IsNode reports whether the entry is of the contender node at nodePath.
func (h *HistoryEntry) IsNode(nodePath string) bool {
	return nodePath != "" && h.NodePath() == nodePath
}

// EventLog is the event log and its counters, and what the log still
// waits to learn of the entries it holds.
type EventLog struct {
	// History is the event log, oldest first: joins, grants, releases.
	// It starts after the first sync, so the initial picture is not
	// reported as a flood of joins.
	History []HistoryEntry
	// Grants counts grants logged; FIFOBreaks those that overtook an
	// earlier waiter of an exclusive lock.
	Grants, FIFOBreaks int
	// Logged counts every entry ever added to History, including those
	// trimmed since: the entries an Apply added are the last Logged-before
	// of History.
	Logged int
	// Expiries counts the contenders whose nodes went with their sessions
	// (EndedByExpiry), however that became known.
	Expiries int
	// Untold are the holders whose holds expired while their clients may
	// still believe they hold, oldest first (see Untold). Replaced, never
	// changed in place.
	Untold []Untold

	// openEnds are the endings logged as not known yet (EndedByUnknown),
	// oldest first.
	openEnds []openEnd
	// logEnds are the transaction log's ends of the event being applied.
	logEnds []zkwatch.NodeEnd
	// foundPending are the contenders (by path) of locks found after the
	// first sync that were not read yet when found: whether they joined
	// before the first sync, and so are not logged, is known once read.
	foundPending map[string]bool
}

// maxHistory is how many entries the event log keeps at least; it may
// hold a quarter more before the oldest are dropped.
const maxHistory = 5000

// record derives history entries from a lock's previous and next analyses.
// A contender read since the last reading (no longer Pending) is the same
// contender: its read is no event.
func (s *State) record(at time.Time, prev, next *lockcore.Lock) {
	old, now := indexContenders(prev, next), indexContenders(next, prev)
	// Releases first: they are what let the grants happen.
	if prev != nil {
		for _, p := range prev.Participants {
			if _, ok := now.find(p); ok {
				continue
			}
			delete(s.foundPending, p.Path)
			change := Left
			if p.Role == lockcore.RoleHolder {
				change = Released
			}
			e := s.entry(at, change, prev.Path, p, false)
			e.Seen = s.unwatched
			e.EndedBy, e.Action = s.endedBy(p, e.At)
			s.exactEnd(&e, p)
			s.add(e)
			s.noteEnd(e, p, prev)
		}
	}
	if next == nil {
		return
	}
	for _, p := range next.Participants {
		before, seen := old.find(p)
		if seen {
			if before.Pending && !p.Pending {
				s.completeEntries(next.Path, p)
			}
			if s.foundPending[p.Path] {
				switch {
				case !p.Pending:
					// Found after the first sync, and read only now.
					delete(s.foundPending, p.Path)
					s.recordFound(at, next, p)
					continue
				case p.Role == lockcore.RoleHolder && before.Role != lockcore.RoleHolder:
					// Granted before it was read: the grant is logged
					// below, once; when it joined stays unknown.
					delete(s.foundPending, p.Path)
				}
			}
			if p.Role == lockcore.RoleHolder && before.Role != lockcore.RoleHolder {
				e := s.entry(at, Granted, next.Path, p, overtook(next, p))
				e.Seen = s.unwatched
				s.add(e)
			}
			continue
		}
		if prev == nil {
			s.recordFound(at, next, p)
			continue
		}
		e := s.entry(at, Joined, next.Path, p, false)
		e.Seen = s.unwatched
		s.add(e)
		if p.Role == lockcore.RoleHolder {
			e := s.entry(at, Granted, next.Path, p, overtook(next, p))
			e.Seen = s.unwatched
			s.add(e)
		}
	}
}

// endedBy says who or what ended p's hold or wait, as its node went, as
// far as is known then: the operator, an expiry (its session was
// connected to no member), or not known yet (see settleEnds); a node no
// session owns was deleted by some client. at is when the node went.
func (s *State) endedBy(p lockcore.Participant, at time.Time) (Ender, *lockcore.Action) {
	k := keyOf(p)
	if a, ok := s.actions[k]; ok {
		delete(s.actions, k)
		if a.Kind == lockcore.ActionRelease {
			return EndedByOwner, nil
		}
		return EndedByOperator, a
	}
	switch {
	case p.Session == 0:
		return EndedByRelease, nil
	case s.Link(p.Session).State == lockcore.LinkDisconnected && s.tracks[p.Session].tooRecentToExpire(at):
		// Connected nowhere, yet heard from less than its timeout ago:
		// its client closed it (a peer that releases and closes at once
		// is seen so when the members' answer comes before the node's
		// deletion).
		return EndedByClose, nil
	case s.Link(p.Session).State == lockcore.LinkDisconnected:
		return EndedByExpiry, nil
	}
	return EndedByUnknown, nil
}

// recordFound logs a contender of a lock found after the first sync. Its
// node's ctime says when it joined, so the join is logged then, marked
// reconstructed, and so is its grant when the analysis knows it exactly; a
// contender that was there before the first sync is part of the picture
// the log starts from, like the locks found by then, and is not logged. A
// contender not read yet waits until it is (foundPending): only its ctime
// tells which it is.
func (s *State) recordFound(at time.Time, l *lockcore.Lock, p lockcore.Participant) {
	if p.Pending {
		if s.foundPending == nil {
			s.foundPending = map[string]bool{}
		}
		s.foundPending[p.Path] = true
		return
	}
	known := p.Ctime.UnixMilli() > 0
	if known && p.Ctime.Before(s.FirstSync) {
		return
	}
	joined := at
	if known && p.Ctime.Before(at) {
		joined = p.Ctime
	}
	e := s.entry(joined, Joined, l.Path, p, false)
	e.Reconstructed, e.Seen = joined != at, joined == at
	s.add(e)
	if p.Role != lockcore.RoleHolder {
		return
	}
	granted := at
	if h := p.Hold; h.Exact() && !h.After.Before(joined) && h.After.Before(at) {
		granted = h.After
	}
	e = s.entry(granted, Granted, l.Path, p, overtook(l, p))
	e.Reconstructed, e.Seen = granted != at, granted == at
	s.add(e)
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

// entry is the log's entry of change c to p in lock.
func (s *State) entry(at time.Time, c Change, lock string, p lockcore.Participant, outOfOrder bool) HistoryEntry {
	return HistoryEntry{At: at, Change: c, Lock: lock, Node: p.Node, Path: p.Path, Session: p.Session,
		Mode: p.Mode, Seq: p.Seq, OutOfOrder: outOfOrder, Token: p.Token}
}

// add logs e, counting it.
func (g *EventLog) add(e HistoryEntry) {
	g.History = append(g.History, e)
	g.Logged++
	if e.OutOfOrder {
		g.FIFOBreaks++
	}
	if e.Change == Granted {
		g.Grants++
	}
	// Trim in batches: copying the log on every entry once it is full
	// would cost a 5,000-entry copy per event. The newest are moved down
	// within the same array (a clone or snapshot holds its own copy), so
	// that a long stream of events allocates no new log as it goes.
	if len(g.History) > maxHistory+maxHistory/4 {
		n := copy(g.History, g.History[len(g.History)-maxHistory:])
		clear(g.History[n:])
		g.History = g.History[:n]
	}
}
