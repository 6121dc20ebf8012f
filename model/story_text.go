package model

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
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
		Disconnected: sp.Disconnected, Frozen: frozenIn(log, sp, ended), Audit: audit}
	h.DeletedBy, h.SessionTimeout, h.LastHeard = logEndOf(log, sp)
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
		wt.DeletedBy, wt.SessionTimeout, wt.LastHeard = logEndOf(log, sp)
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

// endWords is how an ending reads in the text.
func endWords(end string) string {
	switch end {
	case EndUnknown:
		return "ended (released or expired: no member's answer since told)"
	case EndClosed:
		return "ended with its session, closed by its client,"
	case EndSessionEnded:
		return "ended with its session (expired or closed by its client: not known)"
	case EndReleasedOrForced:
		return "deleted while its session lived (released by its holder, or force-released by another client)"
	case EndLeftOrForced:
		return "deleted while its session lived (left, or force-released by another client)"
	}
	return end
}

func sortConns(cs []StoryConn) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].At.Before(cs[j].At) })
}

// WriteJSON writes the story as one JSON document.
func (st Story) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}

// storyTime is a moment of a story, in loc: the day is in the heading.
func storyTime(t time.Time, loc *time.Location) string { return t.In(loc).Format("15:04:05.000") }

// storyDur is a duration to the millisecond.
func storyDur(d time.Duration, atLeast bool) string {
	s := d.Round(time.Millisecond).String()
	if atLeast {
		return "≥" + s
	}
	return s
}

var startWords = map[string]string{StartSeen: "", StartBefore: " (there when watching began)",
	StartLate: " (first seen then; began earlier)", StartCtime: " (its node's creation, before the lock was found)"}

// WriteText writes the story as plain text, in loc, to paste into an
// incident report.
func (st Story) WriteText(w io.Writer, loc *time.Location) error {
	b := &strings.Builder{}
	recipe := ""
	if st.Recipe != "" {
		recipe = " (" + string(st.Recipe) + ")"
	}
	fmt.Fprintf(b, "lock %s%s\n", Printable(st.Lock), recipe)
	fmt.Fprintf(b, "from %s to %s %s\n", st.From.In(loc).Format("2006-01-02 15:04:05.000"), storyTime(st.To, loc), st.To.In(loc).Format("MST"))
	if !st.Known {
		fmt.Fprintf(b, "\nthe recording never saw this lock in that stretch\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	writePartial(b, st.Partial, st.Members)
	if !st.WatchingFrom.IsZero() {
		fmt.Fprintf(b, "the recording had the whole picture from %s; what was there then began earlier\n", storyTime(st.WatchingFrom, loc))
	}
	fmt.Fprintf(b, "\nholders (%d)\n", len(st.Holds))
	for _, h := range st.Holds {
		fmt.Fprintf(b, "  %s  %s granted%s", storyTime(h.Granted, loc), h.Session, startWords[h.Start])
		if h.OutOfOrder {
			fmt.Fprint(b, " out of FIFO order")
		}
		if h.End == EndOngoing {
			fmt.Fprintf(b, "; still holding at the end, held %s\n", storyDur(h.Held, h.AtLeast))
		} else {
			fmt.Fprintf(b, "; held %s; %s at %s\n", storyDur(h.Held, h.AtLeast), endWords(h.End), storyTime(h.Ended, loc))
		}
		fmt.Fprintf(b, "      node %s\n", Printable(h.Node))
		if !h.Disconnected.IsZero() {
			fmt.Fprintf(b, "      its session connected to no member from %s\n", storyTime(h.Disconnected, loc))
		}
		for _, f := range h.Frozen {
			fmt.Fprintf(b, "      %s\n", f.words(h, loc))
		}
		writeLogEnd(b, h.End, h.DeletedBy, h.SessionTimeout, h.LastHeard, loc)
		if h.Audit != "" {
			fmt.Fprintf(b, "      audit: %s\n", Printable(h.Audit))
		}
	}
	fmt.Fprintf(b, "\nwaiters (%d)\n", len(st.Waits))
	for _, wt := range st.Waits {
		fmt.Fprintf(b, "  %s  %s joined%s", storyTime(wt.Joined, loc), wt.Session, startWords[wt.Start])
		if wt.End == EndOngoing {
			fmt.Fprintf(b, "; still waiting at the end, waited %s\n", storyDur(wt.Waited, wt.AtLeast))
		} else {
			d := storyDur(wt.Waited, wt.AtLeast)
			switch {
			case wt.AtLeast && wt.AtMost:
				d = "an unknown time"
			case wt.AtMost:
				d = "≤" + d
			}
			fmt.Fprintf(b, "; waited %s; %s at %s\n", d, endWords(wt.End), storyTime(wt.Ended, loc))
		}
		fmt.Fprintf(b, "      node %s\n", Printable(wt.Node))
		writeLogEnd(b, wt.End, wt.DeletedBy, wt.SessionTimeout, wt.LastHeard, loc)
		if wt.Audit != "" {
			fmt.Fprintf(b, "      audit: %s\n", Printable(wt.Audit))
		}
	}
	fmt.Fprintf(b, "\nconnection losses (%d)\n", len(st.Connection))
	for _, c := range st.Connection {
		who := ""
		if c.Session != "" {
			who = c.Session + ": "
		}
		fmt.Fprintf(b, "  %s  %s%s\n", storyTime(c.At, loc), who, c.What)
	}
	fmt.Fprintf(b, "\nanomalies (%d)\n", len(st.Anomalies))
	for _, a := range st.Anomalies {
		cleared := "still there at the end"
		if !a.Cleared.IsZero() {
			cleared = "cleared " + storyTime(a.Cleared, loc)
		}
		fmt.Fprintf(b, "  %s  %s, %s: %s\n", storyTime(a.Arose, loc), a.Kind, cleared, Printable(a.Detail))
	}
	fmt.Fprintf(b, "\nfigures (only waits and holds seen from their start that ended in the stretch)\n")
	for _, f := range []struct {
		name string
		s    StoryStats
	}{{"waits (join to grant)", st.WaitTimes}, {"holds (grant to release)", st.HoldTimes}} {
		if f.s.Count == 0 {
			fmt.Fprintf(b, "  %s: none\n", f.name)
			continue
		}
		fmt.Fprintf(b, "  %s: %d; p50 %s, p90 %s, p99 %s, max %s\n", f.name, f.s.Count, storyDur(f.s.P50, false),
			storyDur(f.s.P90, false), storyDur(f.s.P99, false), storyDur(f.s.Max, false))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
