package scale

import (
	"fmt"
	"slices"
	"time"
)

// scaleRounds is one figure's time in each of the interleaved rounds, in
// the order measured. The floor and the UI take turns on the same
// cluster, so load from elsewhere on the machine falls on both alike, and
// the rounds' range shows how much of a difference is noise.
type scaleRounds []time.Duration

// median is the middle round's time (the upper middle of an even count).
func (r scaleRounds) median() time.Duration {
	if len(r) == 0 {
		return 0
	}
	s := slices.Clone(r)
	slices.Sort(s)
	return s[len(s)/2]
}

// span is the fastest and the slowest round.
func (r scaleRounds) span() (fastest, slowest time.Duration) {
	if len(r) == 0 {
		return 0, 0
	}
	return slices.Min(r), slices.Max(r)
}

// String is the median with the rounds' range: "1.79s (1.60s–2.10s)".
func (r scaleRounds) String() string {
	lo, hi := r.span()
	return fmt.Sprintf("%s (%s–%s)", fmtDur(r.median()), fmtDur(lo), fmtDur(hi))
}

// ratioOfMedians is r's median over floor's, with r's range, as
// bench-lock prints its clients against go-zookeeper.
func ratioOfMedians(r, floor scaleRounds) scaleValue {
	m, f := r.median(), floor.median()
	if f <= 0 {
		return scaleValue{r.String(), m.Seconds()}
	}
	lo, hi := r.span()
	return scaleValue{fmt.Sprintf("%s (%.2f×; rounds %s–%s)", fmtDur(m), m.Seconds()/f.Seconds(), fmtDur(lo), fmtDur(hi)), m.Seconds()}
}
