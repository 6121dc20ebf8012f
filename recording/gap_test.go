package recording

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestWatchesGap: a lock's watch-table gap is recorded as such, and an
// older recording, which carried it among the lock's warnings, reads the
// same way.
func TestWatchesGap(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	const gap = "the servers' watch table predates this lock's last change"
	lock := func(gap string, warnings ...string) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: "/l", Lock: &lockcore.Lock{Path: "/l",
			Recipe: lockcore.RecipeEmpty, WatchesSource: lockcore.WatchesFromRecipe, WatchesGap: gap, Warnings: warnings}}
	}
	for _, tt := range []struct {
		name    string
		written zkwatch.Event
	}{
		{"now", lock(gap, "sequence counter near its wrap")},
		{"format 1 before the gap", lock("", gap+", so watch targets follow the recipe's rule until it is read again", "sequence counter near its wrap")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := Load(record(t, []zkwatch.Event{tt.written}, Options{}))
			if err != nil {
				t.Fatal(err)
			}
			l := rec.Events[0].Lock
			if l.WatchesGap != gap || !reflect.DeepEqual(l.Warnings, []string{"sequence counter near its wrap"}) {
				t.Fatalf("gap %q, warnings %q", l.WatchesGap, l.Warnings)
			}
		})
	}
}

// TestReadsFormat1: a recording written before format 2 (no action
// lines) still reads.
func TestReadsFormat1(t *testing.T) {
	v1 := `{"zklocks_recording":1,"started":"2026-11-22T03:00:00Z","part":1,"server":"zk1:2181"}` + "\n" +
		`{"t":1763780400000000,"k":"conn","c":{"ph":0,"sv":"zk1:2181","se":4096,"si":"2026-11-22T03:00:00Z"}}` + "\n" +
		`{"t":1000,"k":"error","e":"something"}` + "\n"
	var got []zkwatch.Event
	h, err := Read(bytes.NewReader(gz(v1)), func(ev zkwatch.Event, _ bool) { got = append(got, ev) })
	if err != nil || h.Format != 1 || len(got) != 2 || got[1].Err == nil {
		t.Fatalf("header %+v, %d events, err %v", h, len(got), err)
	}
}
