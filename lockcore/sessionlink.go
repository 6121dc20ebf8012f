package lockcore

import (
	"fmt"
	"slices"
	"time"
)

// LinkState says whether a session is connected to an ensemble member, as
// the members' connection lists (the cons four-letter word) tell. The
// strings are stable: scripts read them from JSON output.
type LinkState string

// Link states.
const (
	// LinkUnknown: the lists cannot tell. Not every member answered, or
	// the session was first seen after the members were asked (it may
	// have connected since), or only one answer missed it (it may have
	// been reconnecting), or nobody asked.
	LinkUnknown LinkState = "unknown"
	// LinkConnected: a member holds a connection for the session.
	LinkConnected LinkState = "connected"
	// LinkDisconnected: every member answered, and none holds a
	// connection for a session that existed when they were asked, nor
	// again when asked a second look later. Its client is gone (killed,
	// partitioned); unless it reconnects, the session expires at its
	// timeout, and its ephemeral nodes go with it.
	LinkDisconnected LinkState = "disconnected"
)

// Link is what the members' connection lists say of one session.
type Link struct {
	State LinkState
	// At, for a disconnected session, is when the members answered; zero
	// otherwise, so that a connected session's Link stays the same from
	// one answer to the next.
	At time.Time
	// ExpiresWithin, for a disconnected session, is about the longest it
	// may live on after At; zero when unknown. It comes from the
	// session's negotiated timeout seen while it was connected, counted
	// from the first answer that missed it, or from the leader's own
	// schedule of session expiries (see ExpirySource); never a guess. A
	// leader election restarts every session's timeout, so the session
	// may then live longer.
	ExpiresWithin time.Duration
	// ExpirySource says where ExpiresWithin came from: "cons" (the
	// timeout negotiated, seen while connected) or "leader" (the leader's
	// dump); empty when unknown.
	ExpirySource string
	// LastClient, for a session no member lists now, is its client's
	// address as LastServer saw it when a member last listed it, at
	// LastSeen (when that answer was asked for); empty when no member
	// ever did while it was watched. A dead client's address is what an
	// operator looks for, and its connection is gone with it.
	LastClient, LastServer string
	LastSeen               time.Time
	// LastName is LastClient's host name by reverse DNS, when one was
	// found; empty otherwise.
	LastName string
	// Silent, for a connected session, says how long its member had heard
	// nothing from it, once that is past a third of its timeout (see
	// IsSilent); zero otherwise.
	Silent Silent
	// Talking, for a connected session, says two of its member's answers
	// showed it sent something within its timeout, and it is not silent.
	Talking bool
}

// LastSeenText says where and when the session's client was last seen,
// times in loc: "10.1.2.3:51234, last seen 20:05:52"; empty when it never
// was.
func (k Link) LastSeenText(loc *time.Location) string {
	if k.LastClient == "" {
		return ""
	}
	name := ""
	if k.LastName != "" {
		name = " (" + k.LastName + ")"
	}
	return k.LastClient + name + ", last seen " + k.LastSeen.In(loc).Format(time.TimeOnly)
}

// ExpiryKnown reports whether ExpiresWithin means anything.
func (k Link) ExpiryKnown() bool { return k.ExpirySource != "" }

// ExpiresText says when a disconnected session expires, for people:
// "expires within ~12s" or, unknown, "expires within its session timeout".
// left is ExpiresWithin less the time since At (the caller's clock).
func (k Link) ExpiresText(left time.Duration) string {
	if !k.ExpiryKnown() {
		return "expires within its session timeout"
	}
	return fmt.Sprintf("expires within ~%ds", int((max(left, 0)+time.Second-1)/time.Second))
}

// WithLinks returns l with each participant's Link set from links (by
// session; a session links does not name is LinkUnknown, a node no session
// owns has the zero Link), a disconnected-holder anomaly for each holder
// whose session is disconnected, and a disconnected-waiter for each such
// waiter, in place of its unwatched-waiter (kept in SetAside). Anomalies
// of those kinds already in l are replaced, and those set aside put back,
// so WithLinks can be applied again as links change. l is not modified:
// the result has its own Participants and Anomalies.
func WithLinks(l Lock, links map[int64]Link) Lock {
	l.Participants = slices.Clone(l.Participants)
	l.Anomalies = slices.DeleteFunc(slices.Clone(l.Anomalies), func(a Anomaly) bool {
		return a.Kind == AnomalyDisconnectedHolder || a.Kind == AnomalyDisconnectedWaiter || a.Kind == AnomalySilentHolder
	})
	l.Anomalies, l.SetAside = append(l.Anomalies, l.SetAside...), nil
	for i := range l.Participants {
		p := &l.Participants[i]
		p.Link = Link{}
		if p.Session == 0 {
			continue
		}
		p.Link = Link{State: LinkUnknown}
		if k, ok := links[p.Session]; ok && k.State != "" {
			p.Link = k
		}
		if p.Role == RoleHolder && p.Link.State == LinkDisconnected {
			l.Anomalies = append(l.Anomalies, one(AnomalyDisconnectedHolder, *p,
				fmt.Sprintf("holds, but session %s is connected to no ensemble member (every member's cons at %s): its client is gone or cut off, "+
					"and the lock stays held until the session expires (%s), unless the client reconnects first%s",
					SessionHex(p.Session), stamp(p.Link.At), expiresIn(p.Link), lastSeenIn(p.Link))))
		}
		if p.Role == RoleWaiter && p.Link.State == LinkDisconnected {
			disconnectedWaiter(&l, *p)
		}
		if sl := p.Link.Silent; p.Role == RoleHolder && p.Link.State == LinkConnected && sl.For > 0 {
			l.Anomalies = append(l.Anomalies, one(AnomalySilentHolder, *p,
				fmt.Sprintf("holds, and its connection stands, but its member had heard nothing from session %s for at least %ds when asked at %s, "+
					"more than a third of its %ds timeout, which a live client pings within: its process is stopped (GC pause, SIGSTOP, stalled VM). "+
					"Unless it wakes, the session expires within ~%ds of that answer and the lock passes on; if it wakes after that, its client is not told at once, "+
					"so a downstream store must check its fencing token (czxid %d)",
					SessionHex(p.Session), seconds(sl.For), stamp(sl.At), seconds(sl.Timeout), seconds(sl.Timeout-sl.For), p.Token)))
		}
	}
	ddlStuckLinks(&l)
	return l
}

// disconnectedWaiter tells waiter p, whose session is disconnected, as
// such: the servers dropped its watches with its connection, so an
// unwatched-waiter of it says nothing of its recipe and is set aside.
func disconnectedWaiter(l *Lock, p Participant) {
	l.Anomalies = slices.DeleteFunc(l.Anomalies, func(a Anomaly) bool {
		if a.Kind == AnomalyUnwatchedWaiter && a.Node == p.Node {
			l.SetAside = append(l.SetAside, a)
			return true
		}
		return false
	})
	l.Anomalies = append(l.Anomalies, one(AnomalyDisconnectedWaiter, p,
		fmt.Sprintf("waits, but session %s is connected to no ensemble member (every member's cons at %s): its client is gone or cut off, "+
			"and the servers dropped its watches with its connection. Unless the client reconnects first, the session expires (%s) and its node goes on its own; "+
			"until then the waiters behind it wait for it%s",
			SessionHex(p.Session), stamp(p.Link.At), expiresIn(p.Link), lastSeenIn(p.Link))))
}

// lastSeenIn is where and when the client was last seen, for an
// anomaly's detail: "; its client was last seen as 10.1.2.3:51234 (via
// 10.0.0.1:2181) at 2026-11-22T20:05:52Z".
func lastSeenIn(k Link) string {
	if k.LastClient == "" {
		return ""
	}
	via := ""
	if k.LastServer != "" {
		via = " (via " + k.LastServer + ")"
	}
	name := ""
	if k.LastName != "" {
		name = " (" + k.LastName + ")"
	}
	return "; its client was last seen as " + k.LastClient + name + via + " at " + stamp(k.LastSeen)
}

// expiresIn says when a disconnected session expires, counted from the
// answer: "within ~12s of that answer, by the timeout it negotiated".
func expiresIn(k Link) string {
	within := fmt.Sprintf("within ~%ds of that answer", int((k.ExpiresWithin+time.Second-1)/time.Second))
	switch k.ExpirySource {
	case "cons":
		return within + ", by the timeout it negotiated"
	case "leader":
		return within + ", by the leader's schedule"
	}
	return "within its session timeout, which no member told"
}

// LinksChanged reports whether WithLinks(l, links) would set any
// participant's Link differently from what l has.
func LinksChanged(l *Lock, links map[int64]Link) bool {
	for _, p := range l.Participants {
		want := Link{}
		if p.Session != 0 {
			want = Link{State: LinkUnknown}
			if k, ok := links[p.Session]; ok && k.State != "" {
				want = k
			}
		}
		if p.Link != want {
			return true
		}
	}
	return false
}
