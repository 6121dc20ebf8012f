package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestHistoryURL(t *testing.T) {
	from := time.Date(2026, 11, 26, 2, 40, 0, 0, time.UTC)
	for _, tc := range []struct {
		src  string
		r    recording.Range
		want string
	}{
		{"http://exp:12181", recording.Range{From: from}, "http://exp:12181/history?from=2026-11-26T02%3A40%3A00Z"},
		{"http://exp:12181/", recording.Range{From: from, To: from.Add(time.Hour)},
			"http://exp:12181/history?from=2026-11-26T02%3A40%3A00Z&to=2026-11-26T03%3A40%3A00Z"},
		{"http://exp:12181/history?since=10m", recording.Range{}, "http://exp:12181/history?since=10m"},
		{"http://exp:12181/history?since=10m", recording.Range{From: from}, "http://exp:12181/history?from=2026-11-26T02%3A40%3A00Z"},
	} {
		got, err := historyURL(tc.src, tc.r)
		if err != nil || got != tc.want {
			t.Errorf("historyURL(%q) = %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
	if _, err := historyURL("http://", recording.Range{}); err == nil {
		t.Error("an address without a host was taken")
	}
}

// A history directory reads as one recording, cut to the range; without
// one, its last hour. A directory without parts, or mixed with files, is
// refused.
func TestLoadSourceDirectory(t *testing.T) {
	dir := t.TempDir()
	h, err := recording.OpenHistory(dir, recording.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, ago := range []time.Duration{3 * time.Hour, 2 * time.Hour, 30 * time.Minute, time.Minute} {
		l := &lockcore.Lock{Path: "/locks/a", Recipe: lockcore.RecipeEmpty, ReadAt: now.Add(-ago)}
		if err := h.Write(zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: l.Path, Lock: l}); err != nil {
			t.Fatal(err, i)
		}
	}
	h.Flush()
	var stderr bytes.Buffer
	r := historyDefault(dir, recording.Range{}, false, now)
	rec, err := loadSource(context.Background(), &stderr, []string{dir}, r)
	if err != nil {
		t.Fatal(err)
	}
	// The last hour: the reading 30 minutes ago and a minute ago, and the
	// one before it folded into the snapshot the range starts from.
	if len(rec.Events) != 3 || stderr.Len() != 0 {
		t.Errorf("%d events (want 3), stderr %q", len(rec.Events), stderr.String())
	}
	h.Close()

	if _, err := loadSource(context.Background(), &stderr, []string{t.TempDir()}, recording.Range{}); !errors.Is(err, recording.ErrNoParts) {
		t.Errorf("an empty directory: %v", err)
	}
	var ee *exitError
	if _, err := loadSource(context.Background(), &stderr, []string{dir, "x.zklocks"}, recording.Range{}); !errors.As(err, &ee) ||
		ee.code != exitUsage || !strings.Contains(err.Error(), "one directory") {
		t.Errorf("a directory among files: %v", err)
	}
}
