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

// SessionLinks holds each session's Link, by session: one per session,
// however many contenders it owns, so that a session's link changing
// changes no participant. A map of it is replaced, never changed in
// place, once a lock was linked with it.
type SessionLinks map[int64]Link

// Of is session's Link: the zero Link for a node no session owns (0),
// LinkUnknown for a session ls does not name.
func (ls SessionLinks) Of(session int64) Link {
	if session == 0 {
		return Link{}
	}
	if k, ok := ls[session]; ok && k.State != "" {
		return k
	}
	return Link{State: LinkUnknown}
}

// WithLinks returns l with the anomalies its sessions' links (see
// SessionLinks.Of) call for: a disconnected-holder for each holder whose
// session is disconnected, a disconnected-waiter for each such waiter in
// place of its unwatched-waiter (kept in SetAside), a silent-holder for
// each holder whose connected session is silent. Anomalies of those kinds
// already in l are replaced, and those set aside put back, so WithLinks
// can be applied again as links change. l is not modified: the result has
// its own Anomalies, and shares l's Participants, which no link changes.
func WithLinks(l Lock, links SessionLinks) Lock {
	l.Anomalies = slices.DeleteFunc(slices.Clone(l.Anomalies), func(a Anomaly) bool {
		return a.Kind == AnomalyDisconnectedHolder || a.Kind == AnomalyDisconnectedWaiter || a.Kind == AnomalySilentHolder
	})
	l.Anomalies, l.SetAside = append(l.Anomalies, l.SetAside...), nil
	for _, p := range l.Participants {
		k := links.Of(p.Session)
		if p.Role == RoleHolder && k.State == LinkDisconnected {
			l.Anomalies = append(l.Anomalies, one(AnomalyDisconnectedHolder, p,
				fmt.Sprintf("holds, but session %s is connected to no ensemble member (every member's cons at %s): its client is gone or cut off, "+
					"and the lock stays held until the session expires (%s), unless the client reconnects first%s; force-release passes the lock now",
					SessionHex(p.Session), stamp(k.At), expiresIn(k), lastSeenIn(k))))
		}
		if p.Role == RoleWaiter && k.State == LinkDisconnected {
			disconnectedWaiter(&l, p, k)
		}
		if sl := k.Silent; p.Role == RoleHolder && k.State == LinkConnected && sl.For > 0 {
			l.Anomalies = append(l.Anomalies, one(AnomalySilentHolder, p,
				fmt.Sprintf("holds, and its connection stands, but its member had heard nothing from session %s for at least %ds when asked at %s, "+
					"more than a third of its %ds timeout, which a live client pings within: its process is stopped (GC pause, SIGSTOP, stalled VM). "+
					"Unless it wakes, the session expires within ~%ds of that answer and the lock passes on; if it wakes after that, its client is not told at once, "+
					"so a downstream store must check its fencing token (czxid %d); to pass the lock sooner, force-release it",
					SessionHex(p.Session), seconds(sl.For), stamp(sl.At), seconds(sl.Timeout), seconds(sl.Timeout-sl.For), p.Token)))
		}
	}
	ddlStuckLinks(&l, links)
	return l
}

// Relinked is WithLinks(*l, links), or l itself when that has the same
// anomalies: a lock whose sessions' links changed only in what no anomaly
// tells (whether one talks, where a gone one was last seen) is kept as it
// is, and nothing is copied.
func Relinked(l *Lock, links SessionLinks) *Lock {
	n := WithLinks(*l, links)
	if slices.EqualFunc(n.Anomalies, l.Anomalies, sameAnomaly) && slices.EqualFunc(n.SetAside, l.SetAside, sameAnomaly) {
		return l
	}
	// Copied here, not taken by address above: the copy is made only when
	// it is kept, where taking n's address moved every reading's copy to
	// the heap.
	kept := n
	return &kept
}

// sameAnomaly reports whether a and b say the same.
func sameAnomaly(a, b Anomaly) bool {
	return a.Kind == b.Kind && a.Node == b.Node && a.Session == b.Session && a.Detail == b.Detail && slices.Equal(a.Nodes, b.Nodes)
}

// disconnectedWaiter tells waiter p, whose session is disconnected, as
// such: the servers dropped its watches with its connection, so an
// unwatched-waiter of it says nothing of its recipe and is set aside.
func disconnectedWaiter(l *Lock, p Participant, k Link) {
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
			SessionHex(p.Session), stamp(k.At), expiresIn(k), lastSeenIn(k))))
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
