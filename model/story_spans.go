package model

import (
	"sort"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// storySpans turns the timeline's spans into holds and waits: how each
// began and ended, and for how long, up to to. told[i], when there is
// one, is spans[i] folded when it ended.
func storySpans(spans []Span, told []*foldedSpan, log []HistoryEntry, to time.Time) ([]StoryHold, []StoryWait) {
	holds, waits := []StoryHold{}, []StoryWait{}
	// A hold's start by its node and time, and whether it was first seen
	// then rather than seen granted.
	grantedLate := map[string]bool{}
	for _, sp := range spans {
		if sp.Hold {
			grantedLate[sp.Node+"@"+sp.From.String()] = sp.Seen || sp.Before
		}
	}
	// Each span's ending is read from its own node's entries: going
	// over the whole log for each would cost a lock of many holds the
	// square of them.
	byNode := map[string][]HistoryEntry{}
	for _, h := range log {
		if h.Lock != "" {
			byNode[h.Node] = append(byNode[h.Node], h)
		}
	}
	for i, sp := range spans {
		var f *foldedSpan
		if i < len(told) {
			f = told[i]
		}
		if sp.Hold {
			if f != nil {
				holds = append(holds, f.hold())
			} else {
				holds = append(holds, holdOf(sp, byNode[sp.Node], to))
			}
			continue
		}
		late, granted := false, false
		if !sp.To.IsZero() {
			late, granted = grantedLate[sp.Node+"@"+sp.To.String()]
		}
		if f != nil {
			waits = append(waits, f.wait(granted, late))
		} else {
			waits = append(waits, waitOf(sp, byNode[sp.Node], to, granted, late))
		}
	}
	return holds, waits
}

// spanStart is how sp's start is told.
func spanStart(sp Span) string {
	switch {
	case sp.Before:
		return StartBefore
	case sp.Reconstructed:
		return StartCtime
	case sp.Seen:
		return StartLate
	}
	return StartSeen
}

// spanSession is sp's session, told.
func spanSession(sp Span) string {
	if sp.Session == 0 {
		return ""
	}
	return lockcore.SessionHex(sp.Session)
}

// holdOf tells the hold sp from its node's entries log, up to to.
func holdOf(sp Span, log []HistoryEntry, to time.Time) StoryHold {
	start := spanStart(sp)
	end, ended := EndOngoing, sp.To
	if ended.IsZero() {
		ended = to
	}
	audit := ""
	if !sp.To.IsZero() {
		audit = auditOf(log, sp.Node, sp.To)
		end = enderWord(sp.EndedBy, EndReleasedOrForced)
	}
	h := StoryHold{Session: spanSession(sp), Node: sp.Node, Granted: sp.From, Start: start, OutOfOrder: sp.OutOfOrder,
		Ended: sp.To, End: end, Held: max(ended.Sub(sp.From), 0), AtLeast: start == StartBefore || start == StartLate,
		Disconnected: sp.Disconnected, Frozen: frozenIn(log, sp, ended), Audit: audit, StoryLogEnd: logEndOf(log, sp)}
	return h
}

// waitOf tells the wait sp from its node's entries log, up to to;
// granted when it ended with its node's hold (late: that hold first
// seen, not seen granted).
func waitOf(sp Span, log []HistoryEntry, to time.Time, granted, late bool) StoryWait {
	start := spanStart(sp)
	end, ended := EndOngoing, sp.To
	if ended.IsZero() {
		ended = to
	}
	audit, atMost := "", false
	if !sp.To.IsZero() {
		audit = auditOf(log, sp.Node, sp.To)
		end = enderWord(sp.EndedBy, EndLeftOrForced)
		if granted {
			end, atMost = EndGranted, late
		}
	}
	wt := StoryWait{Session: spanSession(sp), Node: sp.Node, Joined: sp.From, Start: start, Ended: sp.To, End: end,
		Waited: max(ended.Sub(sp.From), 0), AtLeast: start == StartBefore || start == StartLate, AtMost: atMost, Audit: audit}
	if end != EndGranted {
		wt.StoryLogEnd = logEndOf(log, sp)
	}
	return wt
}

// enderWord is how a hold or wait that ended by e is told; plain is the
// word of a node deleted while its session lived (EndReleasedOrForced,
// EndLeftOrForced), said only of such an ending.
func enderWord(e Ender, plain string) string {
	switch e {
	case EndedByExpiry:
		return EndExpired
	case EndedByClose:
		return EndClosed
	case EndedBySessionEnd:
		return EndSessionEnded
	case EndedByOperator, EndedByOther:
		return EndForced
	case EndedByOwner:
		// A source that names the deleting session says it was its own.
		if plain == EndLeftOrForced {
			return EndLeft
		}
		return EndReleased
	case EndedByRelease:
		return plain
	}
	// Not known yet, or not said (an ending the log never judged): a
	// release would be a guess.
	return EndUnknown
}

// auditOf is the audit line of the operator's action that ended node at
// at, if it was the operator's: the story says it as the audit log does.
func auditOf(log []HistoryEntry, node string, at time.Time) string {
	for _, h := range log {
		if h.Node == node && h.At.Equal(at) && h.EndedBy == EndedByOperator && h.Action != nil {
			return AuditLine(*h.Action)
		}
	}
	return ""
}

func sortConns(cs []StoryConn) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].At.Before(cs[j].At) })
}
