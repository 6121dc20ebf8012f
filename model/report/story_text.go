package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zklocks/zklocks/model"
)

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

var startWords = map[string]string{model.StartSeen: "", model.StartBefore: " (there when watching began)",
	model.StartLate: " (first seen then; began earlier)", model.StartCtime: " (its node's creation, before the lock was found)"}

// WriteStoryText writes the story as plain text, in loc, to paste into an
// incident report.
func WriteStoryText(w io.Writer, st model.Story, loc *time.Location) error {
	b := &strings.Builder{}
	recipe := ""
	if st.Recipe != "" {
		recipe = " (" + string(st.Recipe) + ")"
	}
	fmt.Fprintf(b, "lock %s%s\n", model.Printable(st.Lock), recipe)
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
	writeHolds(b, st.Holds, loc)
	writeWaits(b, st.Waits, loc)
	writeConnLosses(b, st.Connection, loc)
	writeAnomalies(b, st.Anomalies, loc)
	writeFigures(b, st.WaitTimes, st.HoldTimes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeHolds writes each hold: when it was granted and how it ended, its
// node, and what else the recording knew of it (its session cut off from
// the ensemble, its holder frozen, the log's word on its end, the
// operator's audit line).
func writeHolds(b *strings.Builder, holds []model.StoryHold, loc *time.Location) {
	fmt.Fprintf(b, "\nholders (%d)\n", len(holds))
	for _, h := range holds {
		fmt.Fprintf(b, "  %s  %s granted%s", storyTime(h.Granted, loc), h.Session, startWords[h.Start])
		if h.OutOfOrder {
			fmt.Fprint(b, " out of FIFO order")
		}
		if h.End == model.EndOngoing {
			fmt.Fprintf(b, "; still holding at the end, held %s\n", storyDur(h.Held, h.AtLeast))
		} else {
			fmt.Fprintf(b, "; held %s; %s at %s\n", storyDur(h.Held, h.AtLeast), endWords(h.End), storyTime(h.Ended, loc))
		}
		fmt.Fprintf(b, "      node %s\n", model.Printable(h.Node))
		if !h.Disconnected.IsZero() {
			fmt.Fprintf(b, "      its session connected to no member from %s\n", storyTime(h.Disconnected, loc))
		}
		for _, f := range h.Frozen {
			fmt.Fprintf(b, "      %s\n", frozenWords(f, h, loc))
		}
		writeLogEnd(b, h.End, h.StoryLogEnd, loc)
		if h.Audit != "" {
			fmt.Fprintf(b, "      audit: %s\n", model.Printable(h.Audit))
		}
	}
}

// writeWaits writes each wait: when it joined and how it ended, its node,
// the log's word on its end and the operator's audit line.
func writeWaits(b *strings.Builder, waits []model.StoryWait, loc *time.Location) {
	fmt.Fprintf(b, "\nwaiters (%d)\n", len(waits))
	for _, wt := range waits {
		fmt.Fprintf(b, "  %s  %s joined%s", storyTime(wt.Joined, loc), wt.Session, startWords[wt.Start])
		if wt.End == model.EndOngoing {
			fmt.Fprintf(b, "; still waiting at the end, waited %s\n", storyDur(wt.Waited, wt.AtLeast))
		} else {
			fmt.Fprintf(b, "; waited %s; %s at %s\n", waitedWords(wt), endWords(wt.End), storyTime(wt.Ended, loc))
		}
		fmt.Fprintf(b, "      node %s\n", model.Printable(wt.Node))
		writeLogEnd(b, wt.End, wt.StoryLogEnd, loc)
		if wt.Audit != "" {
			fmt.Fprintf(b, "      audit: %s\n", model.Printable(wt.Audit))
		}
	}
}

// waitedWords is how long a wait that ended lasted. A grant whose hold
// was first seen, not seen granted, may have come before it was seen, so
// the wait is at most that long; when the wait's start was not seen
// either, neither bound holds.
func waitedWords(wt model.StoryWait) string {
	d := storyDur(wt.Waited, wt.AtLeast)
	switch {
	case wt.AtLeast && wt.AtMost:
		return "an unknown time"
	case wt.AtMost:
		return "≤" + d
	}
	return d
}

// writeConnLosses writes the connection losses, each with the session it
// befell when it was one session's.
func writeConnLosses(b *strings.Builder, conns []model.StoryConn, loc *time.Location) {
	fmt.Fprintf(b, "\nconnection losses (%d)\n", len(conns))
	for _, c := range conns {
		who := ""
		if c.Session != "" {
			who = c.Session + ": "
		}
		fmt.Fprintf(b, "  %s  %s%s\n", storyTime(c.At, loc), who, c.What)
	}
}

// writeAnomalies writes the anomalies, each with when it arose and
// whether it cleared.
func writeAnomalies(b *strings.Builder, anomalies []model.StoryAnomaly, loc *time.Location) {
	fmt.Fprintf(b, "\nanomalies (%d)\n", len(anomalies))
	for _, a := range anomalies {
		cleared := "still there at the end"
		if !a.Cleared.IsZero() {
			cleared = "cleared " + storyTime(a.Cleared, loc)
		}
		fmt.Fprintf(b, "  %s  %s, %s: %s\n", storyTime(a.Arose, loc), a.Kind, cleared, model.Printable(a.Detail))
	}
}

// writeFigures writes the percentiles of the waits and of the holds.
func writeFigures(b *strings.Builder, waits, holds model.StoryStats) {
	fmt.Fprintf(b, "\nfigures (only waits and holds seen from their start that ended in the stretch)\n")
	for _, f := range []struct {
		name string
		s    model.StoryStats
	}{{"waits (join to grant)", waits}, {"holds (grant to release)", holds}} {
		if f.s.Count == 0 {
			fmt.Fprintf(b, "  %s: none\n", f.name)
			continue
		}
		fmt.Fprintf(b, "  %s: %d; p50 %s, p90 %s, p99 %s, max %s\n", f.name, f.s.Count, storyDur(f.s.P50, false),
			storyDur(f.s.P90, false), storyDur(f.s.P99, false), storyDur(f.s.Max, false))
	}
}

// endWords is how an ending reads in the text.
func endWords(end string) string {
	switch end {
	case model.EndUnknown:
		return "ended (released or expired: no member's answer since told)"
	case model.EndClosed:
		return "ended with its session, closed by its client,"
	case model.EndSessionEnded:
		return "ended with its session (expired or closed by its client: not known)"
	case model.EndReleasedOrForced:
		return "deleted while its session lived (released by its holder, or force-released by another client)"
	case model.EndLeftOrForced:
		return "deleted while its session lived (left, or force-released by another client)"
	}
	return end
}

// writeLogEnd writes what a transaction log said of an ending, end.
func writeLogEnd(b *strings.Builder, end string, e model.StoryLogEnd, loc *time.Location) {
	if e.DeletedBy != "" {
		fmt.Fprintf(b, "      deleted by session %s, not its own\n", e.DeletedBy)
	}
	if end != model.EndExpired && end != model.EndClosed {
		return
	}
	var parts []string
	if e.SessionTimeout > 0 {
		parts = append(parts, "session timeout "+e.SessionTimeout.String())
	}
	if !e.LastHeard.IsZero() {
		parts = append(parts, "its session's last transaction at "+storyTime(e.LastHeard, loc))
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "      %s\n", strings.Join(parts, "; "))
	}
}

// writePartial writes why a story's source did not hold the whole
// stretch, and where members' logs differ.
func writePartial(b *strings.Builder, partial, members []string) {
	for _, p := range partial {
		fmt.Fprintf(b, "PARTIAL: %s\n", model.Printable(p))
	}
	for _, m := range members {
		fmt.Fprintf(b, "members: %s\n", model.Printable(m))
	}
}

// frozenWords tell f of hold h, in loc.
func frozenWords(f model.StoryFrozen, h model.StoryHold, loc *time.Location) string {
	s := fmt.Sprintf("frozen from %s at the latest (its member heard nothing from it, its connection standing; first told %s)",
		storyTime(f.From, loc), storyTime(f.Seen, loc))
	switch {
	case !f.Woke.IsZero():
		return s + fmt.Sprintf(" until it talked again at %s: %s", storyTime(f.Woke, loc), storyDur(f.Woke.Sub(f.From), true))
	case h.End == model.EndOngoing:
		return s + "; still frozen at the end"
	}
	return s + fmt.Sprintf("; still frozen as its hold ended at %s: %s", storyTime(h.Ended, loc), storyDur(h.Ended.Sub(f.From), true))
}
