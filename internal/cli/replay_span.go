package cli

import (
	"time"

	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
)

// replayedSpan is how much of a history a replay holds when no range is
// given: a replay keeps every event in memory to seek among them, and a
// data directory's logs may hold days of them.
const replayedSpan = time.Hour

// maxReplayEvents is the most events a replay of data directories
// holds: each is a lock's whole reading, about 3 KB, so this is about
// 1.5 GB; a dense log's hour may hold millions.
const maxReplayEvents = 500_000

// dataReplayRange is the range a replay of the data directories dirs
// reads when none is given: their logs' last hour, as a history's, by
// the span their headers give; and what to say of it ("" when that is
// all they hold, or their span cannot be read).
func dataReplayRange(dirs []string) (recording.Range, string) {
	var first, last time.Time
	for _, d := range dirs {
		s, err := txnlog.Summarize(d)
		if err != nil {
			return recording.Range{}, ""
		}
		if s.Last.After(last) {
			last = s.Last
		}
		if first.IsZero() || s.First.Before(first) {
			first = s.First
		}
	}
	return lastSpan(first, last)
}

// lastSpan is the replayed span's end of a history from first to last.
func lastSpan(first, last time.Time) (recording.Range, string) {
	if last.Sub(first) <= replayedSpan {
		return recording.Range{}, ""
	}
	from := last.Add(-replayedSpan)
	return recording.Range{From: from}, "replaying the logs' last hour, from " + from.Local().Format(time.DateTime) +
		" (they go back to " + first.Local().Format(time.DateTime) + "): --since or --from for more"
}
