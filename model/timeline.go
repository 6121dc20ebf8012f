package model

import (
	"slices"
	"sort"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/smallmap"
)

// Span is a stretch of one contender's time in a lock, as the event log
// and the lock's present analysis tell it: waiting, or holding.
type Span struct {
	Session int64
	Node    string
	Hold    bool
	// From is when it began, or when watching began (FirstSync) for a
	// contender already there then (Before); To when it ended, zero while
	// it goes on.
	From, To time.Time
	Before   bool
	// Granted: a hold that began with a grant in the log; OutOfOrder: that
	// grant overtook an earlier waiter (FIFO broken).
	Granted, OutOfOrder bool
	// Seen: From is when it was first seen (the lock found, or read again
	// after a lost connection), not when it began, which was earlier.
	Seen bool
	// Disconnected, for a hold, is when its session was found connected
	// to no member; zero if it never was while it held.
	Disconnected time.Time
	// EndedBy says who or what ended it, once it ended (see HistoryEntry).
	EndedBy Ender
	// Reconstructed: From is the node's ctime, as the lock was found after
	// the span began (HistoryEntry.Reconstructed).
	Reconstructed bool
}

// LockTimes is what a lock's contenders did over a window.
type LockTimes struct {
	// Spans overlap the window, in the order they began.
	Spans []Span
	// Waits are join-to-grant times, Holds grant-to-release times, of the
	// waits and holds that ended in the window and whose start the log
	// saw as it happened (not first seen late); each sorted.
	Waits, Holds []time.Duration
}

// Timeline works out the waits and holds of lock over [from, now] from
// the event log and the lock's present analysis.
func (s *State) Timeline(lock string, from, now time.Time) LockTimes {
	lg := logSpans(s.History, lock)
	spans := s.spansNow(lock, lg.spans, lg.open)
	out := LockTimes{Waits: timesIn(lg.waits, from, now), Holds: timesIn(lg.holds, from, now)}
	for _, sp := range spans {
		if spanIn(sp, from, now) {
			out.Spans = append(out.Spans, sp)
		}
	}
	return out
}

// timedSpan is a wait's or a hold's length, dated by when it ended.
type timedSpan struct {
	at time.Time
	d  time.Duration
}

// timesIn is the sorted lengths of times that ended in [from, now].
func timesIn(times []timedSpan, from, now time.Time) []time.Duration {
	var out []time.Duration
	for _, t := range times {
		if !t.at.Before(from) && !t.at.After(now) {
			out = append(out, t.d)
		}
	}
	slices.Sort(out)
	return out
}

// spanIn says whether sp overlaps [from, now].
func spanIn(sp Span, from, now time.Time) bool {
	return (sp.To.IsZero() || !sp.To.Before(from)) && (sp.From.IsZero() || !sp.From.After(now)) && (sp.From.IsZero() || sp.To.IsZero() || sp.To.After(sp.From))
}

// loggedSpans is what a lock's log entries say of its spans: made[i] is
// the index of the entry that began spans[i]; open its spans not ended,
// by node (nil: none); waits and holds the lengths the log saw whole.
type loggedSpans struct {
	spans        []Span
	made         []int
	open         map[string]int
	waits, holds []timedSpan
}

// logSpans reads lock's spans from its entries in history.
func logSpans(history []HistoryEntry, lock string) loggedSpans {
	var spans []Span
	var made []int
	// A lock's log is read again each time one of its nodes' spans is
	// folded, and holds the entries of a node or two.
	var open smallmap.Map[int]         // node → its open span
	var joined smallmap.Map[time.Time] // node → when the log saw it join
	var out loggedSpans
	// closeSpan ends node's open span of the kind hold, and returns its
	// index.
	closeSpan := func(node string, hold bool, at time.Time) (int, bool) {
		i, ok := open.Get(node)
		if !ok || spans[i].Hold != hold {
			return 0, false
		}
		open.Delete(node)
		spans[i].To = at
		return i, true
	}
	for k, h := range history {
		if h.Lock != lock {
			continue
		}
		switch h.Change {
		case Joined:
			open.Set(h.Node, len(spans))
			// A join first seen late has no time; one dated by its node's
			// ctime has the servers' clock, not the one grants are read by.
			if !h.Seen && !h.Reconstructed {
				joined.Set(h.Node, h.At)
			}
			spans = append(spans, Span{Session: h.Session, Node: h.Node, From: h.At, Seen: h.Seen, Reconstructed: h.Reconstructed})
			made = append(made, k)
		case Granted:
			if _, ok := closeSpan(h.Node, false, h.At); !ok {
				if _, holding := open.Get(h.Node); !holding {
					spans = append(spans, Span{Session: h.Session, Node: h.Node, To: h.At})
					made = append(made, k)
				}
			}
			if j, ok := joined.Get(h.Node); ok && !h.Seen {
				out.waits = append(out.waits, timedSpan{h.At, h.At.Sub(j)})
			}
			open.Set(h.Node, len(spans))
			spans = append(spans, Span{Session: h.Session, Node: h.Node, Hold: true, From: h.At, Granted: !h.Seen,
				OutOfOrder: h.OutOfOrder, Seen: h.Seen, Reconstructed: h.Reconstructed})
			made = append(made, k)
		case Disconnected:
			if i, ok := open.Get(h.Node); ok && spans[i].Hold && spans[i].Disconnected.IsZero() {
				spans[i].Disconnected = h.At
			}
		case Released, Left:
			hold := h.Change == Released
			i, ok := closeSpan(h.Node, hold, h.At)
			switch {
			case !ok:
				spans = append(spans, Span{Session: h.Session, Node: h.Node, Hold: hold, To: h.At, EndedBy: h.EndedBy})
				made = append(made, k)
			case hold && spans[i].Granted && !h.Seen:
				out.holds = append(out.holds, timedSpan{h.At, h.At.Sub(spans[i].From)})
			}
			if ok {
				spans[i].EndedBy = h.EndedBy
			}
			joined.Delete(h.Node)
		}
	}
	out.spans, out.made, out.open = spans, made, open.AsMap()
	return out
}

// spansNow adds to spans, read from the log, the lock's present
// contenders the log has no open span of, and dates the spans begun
// before watching began.
func (s *State) spansNow(lock string, spans []Span, open map[string]int) []Span {
	if l := s.Locks[lock]; l != nil {
		for _, p := range l.Participants {
			i, ok := open[p.Node]
			if !ok {
				i = len(spans)
				spans = append(spans, Span{Session: p.Session, Node: p.Node, Hold: p.Role == lockcore.RoleHolder})
			}
			// A holder found disconnected when first read has no entry
			// of it in the log.
			if sp, k := &spans[i], s.Link(p.Session); sp.Hold && sp.Disconnected.IsZero() && k.State == lockcore.LinkDisconnected {
				sp.Disconnected = k.At
			}
		}
	}
	for i := range spans {
		if spans[i].From.IsZero() {
			spans[i].From, spans[i].Before = s.FirstSync, true
		}
	}
	return spans
}

// Percentile is the q-quantile (0 < q ≤ 1) of sorted durations by the
// nearest-rank rule; zero for none.
func Percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(q*float64(len(sorted)) + 0.999999999)
	return sorted[max(0, min(rank, len(sorted))-1)]
}

// Busiest returns up to n lock paths with the most joins and grants logged
// since from, the most contended first (then by path).
func (s *State) Busiest(n int, from time.Time) []string {
	count := map[string]int{}
	for _, h := range s.History {
		if h.Lock != "" && !h.At.Before(from) && (h.Change == Joined || h.Change == Granted) {
			count[h.Lock]++
		}
	}
	for path, l := range s.Locks {
		if _, ok := count[path]; !ok && l.Waiters() > 0 {
			count[path] = 0
		}
	}
	paths := make([]string, 0, len(count))
	for p := range count {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if count[paths[i]] != count[paths[j]] {
			return count[paths[i]] > count[paths[j]]
		}
		return paths[i] < paths[j]
	})
	return paths[:min(n, len(paths))]
}
