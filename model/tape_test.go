package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// TestTapeParseAt: each form a moment of a replay can be typed in reads
// as the moment it names, a time of day on the tape's day or, when the
// tape runs past midnight and the time is before its start, the day
// after; what is none of the forms is an error.
func TestTapeParseAt(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	start := time.Date(2026, 11, 22, 23, 50, 0, 0, loc)
	tape := NewTape([]zkwatch.Event{
		{Kind: zkwatch.EventSynced, At: start},
		{Kind: zkwatch.EventSynced, At: start.Add(20 * time.Minute)},
	})
	for in, want := range map[string]time.Time{
		"start":                start,
		"end":                  start.Add(20 * time.Minute),
		"+90s":                 start.Add(90 * time.Second),
		"-1m":                  start.Add(19 * time.Minute),
		"23:55":                start.Add(5 * time.Minute),
		"23:55:30.5":           start.Add(5*time.Minute + 30500*time.Millisecond),
		"00:05":                start.Add(15 * time.Minute),
		"23:40":                start.Add(-10 * time.Minute),
		"2026-11-22 23:52":     start.Add(2 * time.Minute),
		"2026-11-23T00:01:02":  start.Add(11*time.Minute + 2*time.Second),
		"2026-11-22T21:52:00Z": start.Add(2 * time.Minute),
	} {
		got, err := tape.ParseAt(in, loc)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseAt(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "noon", "25:00", "+x", "2026-13-01 00:00"} {
		if got, err := tape.ParseAt(in, loc); err == nil {
			t.Errorf("ParseAt(%q) = %v, want an error", in, got)
		}
	}
}
