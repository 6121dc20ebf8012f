package lockcore

import (
	"slices"
	"testing"
	"time"
)

// A plain ephemeral lock between holders: its node is gone, so nobody
// holds it, and the sessions exists-watching its path wait for it.
func TestAnalyzeAbsentPlainLock(t *testing.T) {
	table := NewWatchTable(map[int64][]string{0x11: {"/app/lock"}, 0x12: {"/app/lock"}, 0x13: {"/app/other"}})
	l := Analyze(Tree{Path: "/app/lock", Absent: true, ReadAt: time.Now()}, table, Options{LongHeld: time.Minute})
	if l.Recipe != RecipeEphemeral {
		t.Errorf("recipe %q, want %q", l.Recipe, RecipeEphemeral)
	}
	if l.Holders() != 0 || len(l.Participants) != 0 {
		t.Errorf("an absent lock node has no holder: %+v", l.Participants)
	}
	got := slices.Clone(l.HiddenWaiters)
	slices.Sort(got)
	if !slices.Equal(got, []int64{0x11, 0x12}) {
		t.Errorf("hidden waiters %x, want the two sessions watching the path", got)
	}
	if len(l.Anomalies) != 0 {
		t.Errorf("a free lock has no anomaly: %+v", l.Anomalies)
	}
}
