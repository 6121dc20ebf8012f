package model

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// sessionTrack is what the state remembers of a session that owns
// contenders, across the members' answers.
type sessionTrack struct {
	// seen is when a read first showed the session owning a node (this
	// machine's clock): it existed then.
	seen time.Time
	// timeout is the session timeout it negotiated, from the last cons
	// that listed it; zero when no member has listed it.
	timeout time.Duration
	// missing is when a complete answer first listed it nowhere, since it
	// was last listed, and missingAsked when that answer was asked for;
	// zero while connected or unknown.
	missing, missingAsked time.Time
	// addr and server are its client's address and the member that saw
	// it, from the last cons that listed it, asked for at addrAt: kept
	// once no member lists it, when the address matters most.
	addr, server, name string
	addrAt             time.Time
	// heard is a time after which its member heard from it (see
	// zkwatch.ClientInfo.Heard); zero when unknown.
	heard time.Time
}

// tooRecentToExpire reports whether the session's member heard from it
// less than its timeout before at (see heardTooRecently); false for an
// untracked session.
func (t *sessionTrack) tooRecentToExpire(at time.Time) bool {
	return t != nil && heardTooRecently(t.heard, t.timeout, at)
}

// heardTooRecently reports whether a session heard from after heard, with
// this timeout, cannot have expired by at: heard is no later than the
// last time it was heard, and a session expires no sooner than its
// timeout after that. It is false when either is unknown (zero).
func heardTooRecently(heard time.Time, timeout time.Duration, at time.Time) bool {
	return !heard.IsZero() && timeout > 0 && at.Before(heard.Add(timeout))
}

// listed takes what a cons asked for at asked said of the session, which
// it listed.
func (t *sessionTrack) listed(ci zkwatch.ClientInfo, asked time.Time) {
	if ci.Timeout > 0 {
		t.timeout = ci.Timeout
	}
	if ci.Client != "" {
		t.addr, t.server, t.name, t.addrAt = ci.Client, ci.Server, ci.Name, asked
	}
	if ci.Heard.After(t.heard) {
		t.heard = ci.Heard
	}
	t.missing, t.missingAsked = time.Time{}, time.Time{}
}

// lastSeen adds where and when the session's client was last seen to k.
func (t *sessionTrack) lastSeen(k lockcore.Link) lockcore.Link {
	k.LastClient, k.LastServer, k.LastSeen, k.LastName = t.addr, t.server, t.addrAt, t.name
	return k
}

// Liveness is whether each session owning a contender is connected to a
// member, worked out from the members' answers over time.
type Liveness struct {
	// Links says, of each session owning a contender, whether a member
	// holds a connection for it (see Link): once per session, never in
	// its contenders.
	Links lockcore.SessionLinks

	tracks map[int64]*sessionTrack // owner sessions, for Links
	// ownersMoved: a lock was set or removed since tracks were last
	// pruned of sessions that own nothing.
	ownersMoved bool
}

// Link is what the members' connection lists say of session: connected,
// disconnected (with when it expires, when known) or unknown. A node no
// session owns (0) has the zero Link.
func (v *Liveness) Link(session int64) lockcore.Link { return v.Links.Of(session) }

// trackOwners starts tracking the sessions owning l's contenders that are
// not tracked yet, as seen when l was read.
func (s *State) trackOwners(l *lockcore.Lock, at time.Time) {
	if !l.ReadAt.IsZero() {
		at = l.ReadAt
	}
	for _, p := range l.Participants {
		if _, ok := s.tracks[p.Session]; ok || p.Session == 0 {
			continue
		}
		t := &sessionTrack{seen: at}
		s.tracks[p.Session] = t
		// Listed by the members' last answer: connected as of it, like
		// the sessions tracked then. Linking it now rather than at the
		// next answer spares a first sync of thousands of locks linking
		// every one of them again a few seconds later.
		if ci, listed := s.Clients[p.Session]; listed {
			t.listed(ci, s.clientsAsked)
			if s.Links == nil {
				s.Links = lockcore.SessionLinks{}
			}
			s.Links[p.Session] = ci.Link()
		}
	}
}

// withLinks is l as the state shows it: with the anomalies its sessions'
// links call for (a disconnected holder, a silent one), l itself when
// there are none to add or take away.
func (s *State) withLinks(l *lockcore.Lock) *lockcore.Lock { return lockcore.Relinked(l, s.Links) }

// updateLinks works out every owner session's link from what the members
// said in ev (EventServers), then the locks whose links changed. Rules of
// truth: only complete answers (every member answered cons) can say a
// session is connected nowhere, and only of a session seen before the
// members were asked (one first seen later may have connected since).
// One such answer is no evidence: a live client may have been between
// members, or handshaking again after a dropped connection, as its member
// answered. A session is disconnected once two complete answers in a row,
// asked at least zkwatch.SecondLook apart, list it nowhere; until then it
// is unknown. A disconnected session expires at most its timeout
// (negotiated, seen in an earlier cons while it was connected) after the
// first answer that missed it, and without that timeout its expiry is
// unknown. It reports whether any owner's link changed.
func (s *State) updateLinks(ev zkwatch.Event) bool {
	s.pruneTracks()
	asked := ev.ClientsAsked
	if asked.IsZero() {
		asked = ev.At
	}
	var moved map[int64]lockcore.Link // sessions whose link changed
	for session, t := range s.tracks {
		ci, listed := ev.Clients[session]
		var k lockcore.Link
		switch {
		case listed:
			t.listed(ci, asked)
			k = ci.Link()
		case !ev.ClientsComplete || ev.ClientsAsked.IsZero() || !t.seen.Before(ev.ClientsAsked):
			t.missing, t.missingAsked = time.Time{}, time.Time{}
			k = t.lastSeen(lockcore.Link{State: lockcore.LinkUnknown})
		default:
			if t.missing.IsZero() {
				t.missing, t.missingAsked = ev.At, asked
			}
			if asked.Sub(t.missingAsked) < zkwatch.SecondLook {
				k = t.lastSeen(lockcore.Link{State: lockcore.LinkUnknown})
				break
			}
			k = lockcore.Link{State: lockcore.LinkDisconnected, At: ev.At}
			if t.timeout > 0 {
				k.ExpiresWithin, k.ExpirySource = max(t.missing.Add(t.timeout).Sub(ev.At), 0), "cons"
			}
			k = t.lastSeen(k)
		}
		if old, ok := s.Links[session]; !ok || old != k {
			if moved == nil {
				moved = map[int64]lockcore.Link{}
			}
			moved[session] = k
		}
	}
	// Most answers change no session's link: the map and the locks stay
	// as they are. Otherwise the map is replaced, never changed in place
	// (Apply compares it with the one before).
	if len(moved) == 0 && len(s.Links) == len(s.tracks) {
		return false
	}
	links := make(lockcore.SessionLinks, len(s.tracks))
	for session := range s.tracks {
		if k, ok := moved[session]; ok {
			links[session] = k
		} else {
			links[session] = s.Links[session]
		}
	}
	s.Links = links
	if len(moved) == 0 {
		return false
	}
	// Only the locks where a session whose link changed owns a contender
	// show something new; a lock is copied only when its anomalies change
	// (WithLinks replaces what an earlier Links gave it), but each is
	// noted, as a viewer shows its contenders' links.
	for path, l := range s.Locks {
		for _, p := range l.Participants {
			if _, ok := moved[p.Session]; ok {
				s.Locks[path] = s.withLinks(l)
				s.noteLock(path)
				s.steady = steadySpan{}
				break
			}
		}
	}
	return true
}

// pruneTracks forgets the sessions that own no contender any more; it
// goes over the locks only when one was set or removed since it last did.
func (s *State) pruneTracks() {
	if !s.ownersMoved {
		return
	}
	s.ownersMoved = false
	owners := make(map[int64]bool, len(s.tracks))
	for _, l := range s.Locks {
		for _, p := range l.Participants {
			owners[p.Session] = true
		}
	}
	for session := range s.tracks {
		if !owners[session] {
			delete(s.tracks, session)
		}
	}
}

// SetLinks shows every lock with links read once, after the locks were
// read, as a one-shot search reads them (zkwatch.Conn.ReadLinks).
func (s *State) SetLinks(links lockcore.SessionLinks) {
	s.Links = links
	for path, l := range s.Locks {
		s.Locks[path] = s.withLinks(l)
		s.noteLock(path)
	}
	s.steady = steadySpan{}
}
