package cli

import (
	"strings"
	"testing"
	"time"
)

// A replay of a data directory whose logs hold more than an hour reads
// their last hour, and says so; a shorter one reads them whole.
func TestReplayOfALongLogIsItsLastHour(t *testing.T) {
	first := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	last := first.Add(50 * time.Hour)
	r, note := lastSpan(first, last)
	if !r.From.Equal(last.Add(-time.Hour)) || !r.To.IsZero() || !strings.Contains(note, "last hour") || !strings.Contains(note, "--since or --from") {
		t.Errorf("range %+v, note %q", r, note)
	}
	if r, note := lastSpan(first, first.Add(20*time.Minute)); !r.From.IsZero() || note != "" {
		t.Errorf("twenty minutes of logs: range %+v, note %q", r, note)
	}
	if r, note := dataReplayRange([]string{"../../recording/txnlog/testdata/zk38"}); !r.From.IsZero() || note != "" {
		t.Errorf("the fixture's twelve seconds: range %+v, note %q", r, note)
	}
}
