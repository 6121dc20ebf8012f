package model

import "time"

// steadySpan is a span of time over which no lock's time-dependent
// findings change: from the moment AgeTo last looked at every lock until
// the earliest moment one of them can change. The zero span covers
// nothing, so a lock that arrives or changes empties it.
type steadySpan struct {
	from, to time.Time
	forever  bool // no lock's findings change after from
}

func (s steadySpan) covers(t time.Time) bool {
	return !s.from.IsZero() && !t.Before(s.from) && (s.forever || !t.After(s.to))
}

// until ends the span at t, if that is sooner than it ends now.
func (s *steadySpan) until(t time.Time) {
	if s.forever || t.Before(s.to) {
		s.to, s.forever = t, false
	}
}
