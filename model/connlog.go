package model

import (
	"strconv"

	"github.com/zklocks/zklocks/zkwatch"
)

// zklocks' own connection in the event log: what happened to it explains
// the grants and ends logged right after (seen late, after a re-read) and
// the gaps before them. Such entries have no Lock; Note says what
// happened, in words.
const (
	// ConnLost: our connection to a member dropped; nothing is watched
	// until a reconnect.
	ConnLost Change = "conn-lost"
	// Reconnected: a member took our session back: its watches were
	// restored, and every lock is read again to confirm the picture.
	Reconnected Change = "reconnected"
	// NewSession: we have a new session (ours expired): every lock is
	// found and read afresh.
	NewSession Change = "new-session"
	// Reread: every lock was read again after a lost connection: what the
	// log shows from here on was seen as it happened.
	Reread Change = "re-read"
	// LeaderChanged: the ensemble's leader changed, or no member says it
	// leads.
	LeaderChanged Change = "leader"
	// MemberDown and MemberUp: a member stopped answering zklocks, or
	// answers again.
	MemberDown Change = "member-down"
	MemberUp   Change = "member-up"
)

// Ours reports whether c is about zklocks' own connection or the
// ensemble rather than a lock's contender.
func (c Change) Ours() bool {
	switch c {
	case Expired, ConnLost, Reconnected, NewSession, Reread, LeaderChanged, MemberDown, MemberUp:
		return true
	}
	return false
}

// addOurs logs an entry about our own connection or the ensemble.
func (s *State) addOurs(ev zkwatch.Event, c Change, session int64, note string) {
	s.add(HistoryEntry{At: ev.At, Change: c, Session: session, Note: note})
}

// recordConn logs our connection's changes: our session's expiry always,
// the others once the log has started (the first sync).
func (s *State) recordConn(prev zkwatch.ConnState, ev zkwatch.Event) {
	next := ev.Conn
	if next.Phase == zkwatch.Expired {
		s.addOurs(ev, Expired, next.Session, "our session expired: everything is read again")
		return
	}
	if s.FirstSync.IsZero() {
		return
	}
	switch {
	case next.Phase == zkwatch.Disconnected:
		note := "our connection lost"
		if prev.Server != "" {
			note = "our connection to " + Printable(prev.Server) + " lost"
		}
		s.addOurs(ev, ConnLost, next.Session, note+": not watching until it is back")
	case next.Phase == zkwatch.Connected && next.Session == prev.Session && prev.Phase != zkwatch.Connected:
		s.addOurs(ev, Reconnected, next.Session, "back on "+Printable(next.Server)+
			", same session: watches kept; re-reading every lock (≤: seen late)")
	case next.Phase == zkwatch.Connected && next.Session != prev.Session:
		s.addOurs(ev, NewSession, next.Session, "new session "+SessionText(next.Session)+" on "+Printable(next.Server)+
			": finding and reading every lock afresh (≤: seen late)")
	}
}

// recordReread logs the sync that ends a re-read after a lost
// connection.
func (s *State) recordReread(ev zkwatch.Event) {
	if s.FirstSync.IsZero() {
		return
	}
	locks := strconv.Itoa(len(s.Locks)) + " locks"
	if len(s.Locks) == 1 {
		locks = "1 lock"
	}
	s.addOurs(ev, Reread, s.Conn.Session, locks+" re-read: changes are seen live again")
}

// recordServers logs, from the members' answers, a member that stopped
// answering or answers again and a change of leader.
func (s *State) recordServers(ev zkwatch.Event) {
	before := s.members
	s.members = map[string]memberSeen{}
	leader, answered := "", 0
	for _, sv := range ev.Servers {
		m := memberSeen{up: sv.Err == nil, mode: sv.Status.Mode}
		s.members[sv.Addr] = m
		if m.up {
			answered++
		}
		if m.up && (m.mode == "leader" || m.mode == "standalone") {
			leader = sv.Addr
		}
		was, known := before[sv.Addr]
		if !known || s.FirstSync.IsZero() {
			continue
		}
		switch {
		case was.up && !m.up:
			s.addOurs(ev, MemberDown, 0, "member "+Printable(sv.Addr)+" stopped answering: "+Printable(Plain(sv.Err.Error())))
		case !was.up && m.up:
			s.addOurs(ev, MemberUp, 0, "member "+Printable(sv.Addr)+" answers again, as "+Printable(orUnknown(m.mode)))
		}
	}
	if answered == 0 {
		// Nobody answered (our own network, most likely): who leads is
		// not known, which is no change.
		return
	}
	logIt := before != nil && !s.FirstSync.IsZero()
	switch {
	case leader == "":
		if logIt && !s.leaderless && s.leader != "" {
			s.addOurs(ev, LeaderChanged, 0, "no member answers as leader (was "+Printable(s.leader)+
				"): an election, or quorum lost; writes wait until a leader is elected")
		}
		s.leaderless = true
		return
	case logIt && leader == s.leader && s.leaderless:
		s.addOurs(ev, LeaderChanged, 0, Printable(leader)+" leads again")
	case logIt && leader != s.leader && s.leader != "":
		s.addOurs(ev, LeaderChanged, 0, "leader now "+Printable(leader)+" (was "+Printable(s.leader)+")")
	case logIt && leader != s.leader:
		s.addOurs(ev, LeaderChanged, 0, "leader now "+Printable(leader))
	}
	s.leader, s.leaderless = leader, false
}

// memberSeen is what the last members' answer said of one member.
type memberSeen struct {
	up   bool
	mode string
}

func orUnknown(mode string) string {
	if mode == "" {
		return "a member whose mode is unknown"
	}
	return mode
}
