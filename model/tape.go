package model

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// Tape is a recorded run of watcher events that can be replayed to any
// point: the state after the first n events is what State.Apply made of
// them live, since Apply is the only way the state moves. A Tape never
// changes once made; StateAt hands out fresh states.
type Tape struct {
	events []zkwatch.Event
	// times[i] is the latest At among events[0..i]: watcher goroutines
	// stamp events a little out of order, and a cursor's time must only
	// grow with its index.
	times       []time.Time
	checkpoints []*State // checkpoints[k] is the state after k*every events
	every       int
	grants      map[string][]int // lock path → indexes of events that granted it
}

// NewTape makes a tape of events, in the order the watcher sent them.
func NewTape(events []zkwatch.Event) *Tape {
	t := &Tape{events: events, times: make([]time.Time, len(events)), grants: map[string][]int{}}
	// A checkpoint every `every` events bounds a jump's cost to that many
	// Applies, and keeps at most about 200 copies of the state.
	t.every = max(1000, len(events)/200)
	s := NewState()
	t.checkpoints = append(t.checkpoints, s.Clone())
	var latest time.Time
	for i, ev := range events {
		if ev.At.After(latest) {
			latest = ev.At
		}
		t.times[i] = latest
		if ev.Kind == zkwatch.EventLock && !s.LastSync.IsZero() && granted(s.Locks[ev.Path], ev.Lock) {
			t.grants[ev.Path] = append(t.grants[ev.Path], i)
		}
		s.Apply(ev)
		if (i+1)%t.every == 0 {
			t.checkpoints = append(t.checkpoints, s.Clone())
		}
	}
	return t
}

// granted reports whether next has a holder that prev did not have, as
// the event log counts grants.
func granted(prev, next *lockcore.Lock) bool {
	old := indexContenders(prev, next)
	for _, p := range next.Participants {
		if p.Role != lockcore.RoleHolder {
			continue
		}
		if q, ok := old.find(p); !ok || q.Role != lockcore.RoleHolder {
			return true
		}
	}
	return false
}

// Len is the number of events.
func (t *Tape) Len() int { return len(t.events) }

// Event returns event i (0-based).
func (t *Tape) Event(i int) zkwatch.Event { return t.events[i] }

// Start is the first event's time; End the latest. Both are zero on an
// empty tape.
func (t *Tape) Start() time.Time {
	if len(t.times) == 0 {
		return time.Time{}
	}
	return t.times[0]
}

// End is the latest time on the tape.
func (t *Tape) End() time.Time {
	if len(t.times) == 0 {
		return time.Time{}
	}
	return t.times[len(t.times)-1]
}

// TimeOf is the time at which the first n events have happened: the
// latest At among them (Start for n = 0).
func (t *Tape) TimeOf(n int) time.Time {
	if n <= 0 {
		return t.Start()
	}
	return t.times[min(n, len(t.times))-1]
}

// Count returns how many events had happened at time at: the largest n
// with TimeOf(n) ≤ at.
func (t *Tape) Count(at time.Time) int {
	return sort.Search(len(t.times), func(i int) bool { return t.times[i].After(at) })
}

// StateAt returns a fresh state after the first n events (0 ≤ n ≤ Len).
func (t *Tape) StateAt(n int) *State {
	n = max(0, min(n, len(t.events)))
	k := n / t.every
	s := t.checkpoints[k].Clone()
	for _, ev := range t.events[k*t.every : n] {
		s.Apply(ev)
	}
	return s
}

// Grants returns the indexes of the events that granted lock path to a
// contender, in order (only after the first sync, as the event log).
func (t *Tape) Grants(path string) []int { return t.grants[path] }

// Changes reports whether event i changed what the operator sees of the
// locks or the connection, rather than refreshing the servers' figures
// or the discovery's progress.
func (t *Tape) Changes(i int) bool {
	switch t.events[i].Kind {
	case zkwatch.EventServers, zkwatch.EventDiscovery:
		return false
	}
	return true
}

// ParseAt reads a moment of the tape as people type it: an RFC 3339 time;
// a date and time ("2026-11-22 03:12:04.5") or a time of day ("03:12",
// "03:12:04.512") in loc, on the day of the tape (or the day after, when
// the tape runs past midnight); "+90s" after the start or "-1m" before the
// end; "start" or "end".
func (t *Tape) ParseAt(s string, loc *time.Location) (time.Time, error) {
	return ParseMomentIn(s, t.Start(), t.End(), loc)
}

// ParseMomentIn reads a moment of a history that runs from start to end:
// start, end, +DURATION from the start, -DURATION from the end, or a
// time (a time of day is the first such one from the start on).
func ParseMomentIn(s string, start, end time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "start":
		return start, nil
	case s == "end":
		return end, nil
	case strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-"):
		d, err := time.ParseDuration(s[1:])
		if err != nil {
			return time.Time{}, fmt.Errorf("%q: an offset is +DURATION from the start or -DURATION from the end, as +90s or -2m", s)
		}
		if s[0] == '+' {
			return start.Add(d), nil
		}
		return end.Add(-d), nil
	}
	at, timeOfDay, ok := recording.ParseMoment(s, start, loc)
	if !ok {
		return time.Time{}, fmt.Errorf("%q is not a time: give 03:12:04, 2026-11-22 03:12:04, an RFC 3339 time, +90s, -1m, start or end", s)
	}
	if timeOfDay && at.Before(start) && at.AddDate(0, 0, 1).Before(end.Add(time.Second)) {
		at = at.AddDate(0, 0, 1)
	}
	return at, nil
}
