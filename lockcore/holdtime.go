package lockcore

import (
	"fmt"
	"time"
)

// HoldHow says how a holder's grant time is known. The strings are stable:
// scripts read them from JSON output.
type HoldHow string

// How a grant time is known.
const (
	// HoldSeen: the reader saw the node waiting and then holding, with its
	// watch on the lock and its session connected in between, so the grant
	// is when the reader saw it, as closely as watch notifications tell.
	HoldSeen HoldHow = "seen"
	// HoldCreated: the node has held since it was created, by the server's
	// clock: its recipe creates it only once granted (a plain ephemeral
	// lock, a kazoo lease), or its parent's children have not changed since
	// it was created, so it held from its creation on.
	HoldCreated HoldHow = "created"
	// HoldBounded: the grant is known only to lie between Hold.After and
	// Hold.By; Max is then an upper bound, not a measurement.
	HoldBounded HoldHow = "bounded"
	// HoldPending: the holder's node is not read yet (Participant.Pending),
	// so nothing is known of its grant; Min and Max are zero.
	HoldPending HoldHow = "pending"
)

// Hold is what is known of how long a holder has held the lock: not its
// age, which includes the time it queued. Times mix the server's clock
// (ctime) and the reader's (ReadAt), like Participant.Age.
type Hold struct {
	// After and By bound the grant: it came no earlier than After and no
	// later than By. They are equal when the grant is known (How is
	// HoldSeen or HoldCreated).
	After, By time.Time
	How       HoldHow
	// Min and Max bound the hold as of the lock's ReadAt; equal when the
	// grant is known.
	Min, Max time.Duration
}

// Exact reports whether the grant time is known, so that Max is the hold
// rather than an upper bound on it.
func (h Hold) Exact() bool { return h.How == HoldSeen || h.How == HoldCreated }

// NewHold is a hold granted between after and by, as an analysis read at
// readAt makes it: its times instants in the local zone without a
// monotonic reading (so that holds compare equal however their times were
// made), its bounds as of readAt.
func NewHold(after, by time.Time, how HoldHow, readAt time.Time) Hold {
	return Hold{After: plain(after), By: plain(by), How: how}.AsOf(readAt)
}

// AsOf is h with Min and Max worked out as of readAt, the read they bound
// the hold at: a reader carries a hold from one read to the next with
// it. A pending hold, or none (How ""), has no bounds: it is returned as
// it is.
func (h Hold) AsOf(readAt time.Time) Hold {
	if h.How == "" || h.How == HoldPending {
		return h
	}
	h.Min = Age(readAt, h.By)
	h.Max = max(Age(readAt, h.After), h.Min)
	return h
}

// Sighting is what one read saw of one contender: its path, czxid and, if
// it held, its hold (nil for a waiter: a reader keeps a sighting of every
// contender of every lock it watches, and most of them wait).
type Sighting struct {
	Path  string
	Token int64
	Hold  *Hold
}

// Holding reports whether the contender held when it was seen.
func (s Sighting) Holding() bool { return s.Hold != nil }

// Sightings is what a reader saw of one lock at one read (At), kept to
// give Analyze the lock's past at the next read of the same path.
type Sightings struct {
	At    time.Time
	Nodes []Sighting
}

// Sightings returns what this analysis saw, for the next read of the same
// lock (Tree.Seen).
func (l *Lock) Sightings() *Sightings {
	s := &Sightings{At: l.ReadAt, Nodes: make([]Sighting, len(l.Participants))}
	for i, p := range l.Participants {
		s.Nodes[i] = Sighting{Path: p.Path, Token: p.Token}
		if p.Role == RoleHolder {
			h := p.Hold
			s.Nodes[i].Hold = &h
		}
	}
	return s
}

func (s *Sightings) find(path string, token int64) (Sighting, bool) {
	if s == nil {
		return Sighting{}, false
	}
	for _, n := range s.Nodes {
		// A token of 0 is a node not read yet: its sequential name alone
		// tells it, as a recipe never makes two nodes of one name.
		if n.Path == path && (n.Token == token || n.Token == 0 || token == 0) {
			return n, true
		}
	}
	return Sighting{}, false
}

// fillHolds works out each holder's hold from, best first: what the reader
// saw at its last read (t.Seen), how the recipe grants, and what the
// parent's Stat proves. entries[i] is l.Participants[i].
func fillHolds(l *Lock, t Tree, entries []*entry) {
	for i := range l.Participants {
		p := &l.Participants[i]
		if p.Role != RoleHolder {
			continue
		}
		if p.Pending {
			p.Hold = Hold{How: HoldPending}
			continue
		}
		h := holdOf(l, t, entries[i], *p)
		p.Hold = NewHold(h.After, h.By, h.How, l.ReadAt)
	}
}

func holdOf(l *Lock, t Tree, e *entry, p Participant) Hold {
	known := func(at time.Time, how HoldHow) Hold { return Hold{After: at, By: at, How: how} }
	if s, ok := t.Seen.find(p.Path, p.Token); ok {
		switch {
		case s.Holding() && s.Hold.How == HoldPending:
			// Holding when last read, but its node was not read then:
			// the grant is known no better than by the rules below.
		case s.Holding():
			return *s.Hold
		case t.Watched:
			return known(l.ReadAt, HoldSeen)
		default:
			// Seen waiting at t.Seen.At, then a gap in the watch: the
			// grant came between that read and this one.
			return Hold{After: later(p.Ctime, t.Seen.At), By: l.ReadAt, How: HoldBounded}
		}
	}
	switch {
	case l.Recipe == RecipeEphemeral, l.Recipe == RecipeKazooSemaphore && p.Mode == ModeLease && e.group == 0:
		// Created only once granted.
		return known(p.Ctime, HoldCreated)
	case e.path != JoinPath(t.Path, e.node.Name):
		// Not a child of the lock path, whose Stat is the only one read.
		return Hold{After: p.Ctime, By: l.ReadAt, How: HoldBounded}
	}
	// The parent's pzxid is the zxid of its last child created or deleted,
	// so a child with that czxid is the last change: nothing left or joined
	// since, and the children listed are those at its creation. The holder
	// held from then at the latest, or from its own creation if it is that
	// child. A deletion since (pzxid above every czxid) proves nothing of
	// when: ZooKeeper keeps no time for it.
	pzxid := t.Self.Stat.Pzxid
	if pzxid == p.Token {
		return known(p.Ctime, HoldCreated)
	}
	for _, c := range t.Children {
		if c.Stat.Czxid == pzxid && c.Stat.Czxid > p.Token {
			by := later(p.Ctime, time.UnixMilli(c.Stat.Ctime))
			if by.After(l.ReadAt) {
				by = l.ReadAt
			}
			return Hold{After: p.Ctime, By: by, How: HoldBounded}
		}
	}
	return Hold{After: p.Ctime, By: l.ReadAt, How: HoldBounded}
}

// plain is t as an instant in the local zone, without a monotonic reading,
// so that holds compare equal however their times were made.
func plain(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.Unix(0, t.UnixNano())
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Age is how long before readAt t was, as an analysis counts ages and
// holds: zero when either is unknown (a contender not read yet has no
// ctime) or t is later (the leader's clock ahead of the reader's).
func Age(readAt, t time.Time) time.Duration {
	if readAt.IsZero() || t.IsZero() || t.After(readAt) {
		return 0
	}
	return readAt.Sub(t)
}

// OldestHold returns the longest hold among the holders read (a holder
// not read yet, Pending, has no hold to compare), by its upper bound (an
// exact hold wins a tie), and whether there is such a holder.
func (l *Lock) OldestHold() (Hold, bool) {
	var oldest Hold
	found := false
	for _, p := range l.Participants {
		if p.Role != RoleHolder || p.Pending {
			continue
		}
		h := p.Hold
		if !found || h.Max > oldest.Max || h.Max == oldest.Max && h.Exact() && !oldest.Exact() {
			oldest, found = h, true
		}
	}
	return oldest, found
}

// KnownHold returns, of the holders' holds as of now (see HoldAt), the
// longest known one (each hold's lower bound, its length when exact) and
// the longest possible one (each hold's upper bound); zeros with no holder.
func (l *Lock) KnownHold(now time.Time) (known, atMost time.Duration) {
	for _, p := range l.Participants {
		if p.Role == RoleHolder {
			h := HoldAt(p.Hold, l.ReadAt, now)
			known, atMost = max(known, h.Min), max(atMost, h.Max)
		}
	}
	return known, atMost
}

// HoldAt is h as of now, for a lock read at readAt and unchanged since:
// both bounds grow by the time since the read. A pending hold stays
// without bounds: nothing is known of it until its node is read.
func HoldAt(h Hold, readAt, now time.Time) Hold {
	if h.How == HoldPending {
		return h
	}
	if d := Age(now, readAt); d > 0 {
		h.Min += d
		h.Max += d
	}
	return h
}

// longHeldFix is what a long hold calls for, as the UI and
// docs/alerting.md say it: a pager shows check's line first.
const longHeldFix = ": if its client is alive, its work is stuck: look at the process' threads (jstack, py-spy), then revoke or force-release"

// longHeld reports the holders known, as of now, to have held longer than
// the threshold (anomalies), and those that only may have (their hold's
// upper bound is past it, its lower bound is not).
func longHeld(l *Lock, threshold time.Duration, now time.Time) (known, maybe []Anomaly) {
	if threshold <= 0 {
		return nil, nil
	}
	for _, p := range l.Participants {
		if p.Role != RoleHolder {
			continue
		}
		h := HoldAt(p.Hold, l.ReadAt, now)
		switch holdClassOf(h, threshold) {
		case holdKnownLong:
			if h.Exact() {
				known = append(known, one(AnomalyLongHeld, p, fmt.Sprintf("held since %s (%s), longer than %s%s",
					stamp(h.By), holdEvidence(h.How), threshold, longHeldFix)))
			} else {
				known = append(known, one(AnomalyLongHeld, p, fmt.Sprintf("held since %s at the latest (queued from %s), longer than %s%s",
					stamp(h.By), stamp(p.Ctime), threshold, longHeldFix)))
			}
		case holdMaybeLong:
			maybe = append(maybe, one(AnomalyLongHeld, p, fmt.Sprintf("may have held longer than %s: queued from %s and got the lock by %s, when is not known",
				threshold, stamp(h.After), stamp(h.By))))
		}
	}
	return known, maybe
}

// holdClass is what a hold is against the long-held threshold.
type holdClass int

const (
	holdNotLong holdClass = iota
	holdKnownLong
	holdMaybeLong
)

func holdClassOf(h Hold, threshold time.Duration) holdClass {
	switch {
	case h.Min > threshold:
		return holdKnownLong
	case h.Max > threshold:
		return holdMaybeLong
	}
	return holdNotLong
}

// sameLongHeld reports, without building their evidence, whether the
// long-held findings at now name the same holders, in the same order, as
// those l has: the UI asks every second of every lock.
func sameLongHeld(l *Lock, now time.Time) bool {
	ki, mi := 0, 0
	for i := range l.Participants {
		p := &l.Participants[i] // a Participant is too big to copy 10,000 times a second
		if p.Role != RoleHolder {
			continue
		}
		switch holdClassOf(HoldAt(p.Hold, l.ReadAt, now), l.LongHeldAfter) {
		case holdKnownLong:
			for ki < len(l.Anomalies) && l.Anomalies[ki].Kind != AnomalyLongHeld {
				ki++
			}
			if ki == len(l.Anomalies) || l.Anomalies[ki].Node != p.Node {
				return false
			}
			ki++
		case holdMaybeLong:
			if mi == len(l.MaybeLongHeld) || l.MaybeLongHeld[mi].Node != p.Node {
				return false
			}
			mi++
		}
	}
	for ; ki < len(l.Anomalies); ki++ {
		if l.Anomalies[ki].Kind == AnomalyLongHeld {
			return false
		}
	}
	return mi == len(l.MaybeLongHeld)
}

func holdEvidence(how HoldHow) string {
	if how == HoldSeen {
		return "granted then, as the watcher saw"
	}
	return "granted at its creation, by the server's clock"
}

// At returns the lock as it stands at now if nothing was read since: the
// long-held check redone for holds grown by now − ReadAt. Ages, holds and
// ReadAt are left as read. It returns l itself when the findings are the
// same, so that a caller can tell whether anything changed.
func (l *Lock) At(now time.Time) *Lock {
	if l.LongHeldAfter <= 0 || sameLongHeld(l, now) {
		return l
	}
	known, maybe := longHeld(l, l.LongHeldAfter, now)
	var rest []Anomaly
	before := 0
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyLongHeld {
			before++
		} else {
			rest = append(rest, a)
		}
	}
	if before == len(known) && len(l.MaybeLongHeld) == len(maybe) && sameNodes(l.MaybeLongHeld, maybe) {
		return l
	}
	c := *l
	c.Anomalies = append(rest, known...)
	c.MaybeLongHeld = maybe
	return &c
}

// LongHeldSteadyUntil returns the last moment, from now on, at which At
// gives the findings it gives at now, and false when that holds for ever.
// Both bounds of a hold grow only with the time since the lock was read, so
// the findings change only when one of them passes the threshold. The UI
// asks At of every lock every second; with this it asks again only when an
// answer can change.
func (l *Lock) LongHeldSteadyUntil(now time.Time) (time.Time, bool) {
	var until time.Time
	found := false
	if l.LongHeldAfter <= 0 || l.ReadAt.IsZero() {
		return until, false
	}
	for i := range l.Participants {
		p := &l.Participants[i]
		if p.Role != RoleHolder || p.Hold.How == HoldPending {
			continue
		}
		for _, bound := range [2]time.Duration{p.Hold.Min, p.Hold.Max} {
			// bound + (t − ReadAt) exceeds the threshold just after c.
			c := l.ReadAt.Add(l.LongHeldAfter - bound)
			if !c.Before(now) && (!found || c.Before(until)) {
				until, found = c, true
			}
		}
	}
	return until, found
}

func sameNodes(a, b []Anomaly) bool {
	for i := range a {
		if a[i].Node != b[i].Node {
			return false
		}
	}
	return true
}
