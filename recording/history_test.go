package recording

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// fakeClock is a History's clock, moved by the test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.t) {
		c.t = t
	}
}

// keep writes evs to a History in dir, the clock following the events.
func keep(t *testing.T, dir string, evs []zkwatch.Event, opt HistoryOptions, clock *fakeClock) {
	t.Helper()
	opt.Now = clock.now
	clock.set(evs[0].At)
	h, err := OpenHistory(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		clock.set(ev.At)
		if err := h.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h.Prune()
}

// lastLock is the last reading of path among evs.
func lastLock(evs []zkwatch.Event, path string) (zkwatch.Event, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == zkwatch.EventLock && evs[i].Path == path {
			return evs[i], true
		}
	}
	return zkwatch.Event{}, false
}

// The size cap drops the oldest parts whole; what is left replays on its
// own, from the first remaining part's snapshot, to the same locks.
func TestHistorySizeCap(t *testing.T) {
	t.Parallel()
	// 6,000 events write eight parts of 16 KiB against a cap of four:
	// the oldest are dropped several times over (20,000 wrote 25 parts,
	// three times the CPU under -race, for the same checks).
	evs := mixed(t, 6000)
	dir := t.TempDir()
	const limit = 64 << 10
	keep(t, dir, evs, HistoryOptions{MaxSize: limit}, &fakeClock{})
	parts, err := ListParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, p := range parts {
		total += p.Size
	}
	if total > limit || len(parts) < 3 {
		t.Fatalf("%d parts take %d bytes; the cap is %d", len(parts), total, limit)
	}
	first, err := ReadHeader(parts[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if first.Part == 1 {
		t.Fatalf("the first part is still there: nothing was dropped (%d parts, %d bytes)", len(parts), total)
	}
	var warned []error
	rec, err := LoadDir(dir, ReadOptions{Warn: func(err error) { warned = append(warned, err) }})
	if err != nil || len(warned) > 0 {
		t.Fatalf("err %v, warnings %v", err, warned)
	}
	for _, path := range []string{"/locks/orders-000", "/locks/orders-007", "/locks/orders-019"} {
		want, ok1 := lastLock(evs, path)
		got, ok2 := lastLock(rec.Events, path)
		got.At = want.At
		if d := diffEvent(want, got); !ok1 || !ok2 || d != "" {
			t.Errorf("%s: %v %v %s", path, ok1, ok2, d)
		}
	}
}

// The age cap drops whole the parts that ended before it; the part being
// written stays whatever its age.
func TestHistoryAgeCap(t *testing.T) {
	t.Parallel()
	evs := mixed(t, 6000) // 3 ms apart: 18 s
	dir := t.TempDir()
	clock := &fakeClock{}
	keep(t, dir, evs, HistoryOptions{MaxAge: 8 * time.Second}, clock)
	parts, err := ListParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 2 {
		t.Fatalf("%d parts", len(parts))
	}
	now := clock.now()
	for i := range parts[:len(parts)-1] {
		if end := parts[i+1].Started; now.Sub(end) > 8*time.Second {
			t.Errorf("%s ended %v before the last event, past the cap", filepath.Base(parts[i].Name), now.Sub(end))
		}
	}
	if now.Sub(parts[0].Started) < 8*time.Second {
		t.Errorf("the oldest part kept began %v before the end: dropped too much", now.Sub(parts[0].Started))
	}
	rec, err := LoadDir(dir, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := lastLock(evs, "/locks/orders-011")
	got, _ := lastLock(rec.Events, "/locks/orders-011")
	got.At = want.At
	if d := diffEvent(want, got); d != "" {
		t.Error(d)
	}
}

// A History opened again continues the numbering, and a reading in a row
// tells the gap between the runs: the watcher closed from the last
// event before it, the locks not listed again by the next sync gone.
func TestHistoryRestart(t *testing.T) {
	evs := mixed(t, 2000)
	dir := t.TempDir()
	clock := &fakeClock{}
	keep(t, dir, evs[:1200], HistoryOptions{}, clock)
	clock.set(evs[1199].At.Add(time.Minute))
	// The second run reads every lock but orders-004 again, then syncs.
	second := []zkwatch.Event{{Kind: zkwatch.EventConn, At: clock.now(), Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Session: 0x2000abc, Since: clock.now()}}}
	for _, ev := range evs[:1200] {
		if ev.Kind == zkwatch.EventLock && ev.Path != "/locks/orders-004" {
			l, _ := lastLock(evs[:1200], ev.Path)
			l.At = clock.now()
			second = append(second, l)
		}
	}
	second = append(second, zkwatch.Event{Kind: zkwatch.EventSynced, At: clock.now()})
	keep(t, dir, second, HistoryOptions{}, clock)
	parts, _ := ListParts(dir)
	if len(parts) != 2 {
		t.Fatalf("%d parts, want one per run", len(parts))
	}
	h1, _ := ReadHeader(parts[0].Name)
	h2, _ := ReadHeader(parts[1].Name)
	if h2.Part != h1.Part+1 || h1.Run.Equal(h2.Run) {
		t.Errorf("headers %+v then %+v: want the next part of another run", h1, h2)
	}
	rec, err := LoadDir(dir, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gap, gone := -1, -1
	for i, ev := range rec.Events {
		switch {
		case ev.Kind == zkwatch.EventConn && ev.Conn.Phase == zkwatch.Closed && ev.At.Equal(evs[1199].At.Truncate(time.Microsecond)):
			gap = i
		case ev.Kind == zkwatch.EventLockGone && ev.Path == "/locks/orders-004" && i > gap && gap >= 0:
			gone = i
		}
	}
	if gap < 0 || gone < 0 || rec.Events[gone+1].Kind != zkwatch.EventSynced {
		t.Fatalf("gap at %d, orders-004 gone at %d (want just before the second sync)", gap, gone)
	}
}

// A spoilt part is skipped, and one cut short read up to the cut, each
// with a warning naming it; the rest still replays.
func TestHistorySpoiltParts(t *testing.T) {
	t.Parallel()
	evs := mixed(t, 6000)
	dir := t.TempDir()
	keep(t, dir, evs, HistoryOptions{MaxSize: 2 << 20, MaxAge: 50 * time.Second}, &fakeClock{})
	parts, _ := ListParts(dir)
	if len(parts) < 4 {
		t.Fatalf("%d parts", len(parts))
	}
	bad, cut := parts[1].Name, parts[2].Name
	if err := os.WriteFile(bad, []byte("not a recording"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cut)
	if err := os.WriteFile(cut, b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	var warned []string
	rec, err := LoadDir(dir, ReadOptions{Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 2 || !strings.Contains(warned[0], filepath.Base(bad)) || !strings.Contains(warned[1], filepath.Base(cut)) ||
		!strings.Contains(warned[1], "ends in the middle") {
		t.Fatalf("warnings: %q", warned)
	}
	want, _ := lastLock(evs, "/locks/orders-013")
	got, _ := lastLock(rec.Events, "/locks/orders-013")
	got.At = want.At
	if d := diffEvent(want, got); d != "" {
		t.Error(d)
	}
}

// A range's stream is one recording: the snapshot of what came before it,
// then its events and no later one.
func TestHistoryWriteRange(t *testing.T) {
	t.Parallel()
	evs := mixed(t, 6000)
	dir := t.TempDir()
	clock := &fakeClock{}
	keep(t, dir, evs, HistoryOptions{MaxAge: 50 * time.Second}, clock)
	h, err := OpenHistory(dir, HistoryOptions{MaxAge: 50 * time.Second, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	from, to := evs[1500].At, evs[4500].At
	var buf bytes.Buffer
	if err := h.WriteRange(&buf, Range{From: from, To: to}, func(err error) { t.Error(err) }, nil); err != nil {
		t.Fatal(err)
	}
	var snap, in int
	var last zkwatch.Event
	if _, err := Read(&buf, func(ev zkwatch.Event, s bool) {
		if s {
			snap++
			return
		}
		in++
		last = ev
		if ev.At.Before(from.Truncate(time.Microsecond)) || ev.At.After(to) {
			t.Fatalf("event at %v outside %v – %v", ev.At, from, to)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if snap < 20 || in < 2900 || in > 3100 {
		t.Fatalf("%d snapshot events, %d in the range", snap, in)
	}
	want, _ := lastLock(evs[:4501], last.Path)
	if d := diffEvent(want, last); d != "" {
		t.Errorf("the range ends differently: %s", d)
	}
}

func TestParseRange(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		since, from, to string
		want            Range
		err             bool
	}{
		{since: "1h", want: Range{From: now.Add(-time.Hour)}},
		{from: "02:40", to: "03:10", want: Range{From: now.Add(-50 * time.Minute), To: now.Add(-20 * time.Minute)}},
		{from: "23:50", to: "00:10", want: Range{From: time.Date(2026, 11, 21, 23, 50, 0, 0, time.UTC), To: time.Date(2026, 11, 22, 0, 10, 0, 0, time.UTC)}},
		{from: "04:00", want: Range{From: time.Date(2026, 11, 21, 4, 0, 0, 0, time.UTC)}},
		{from: "2026-11-22T02:00:00Z", want: Range{From: now.Add(-90 * time.Minute)}},
		{since: "1h", from: "02:00", err: true},
		{since: "soon", err: true},
		{from: "yesterday", err: true},
		{from: "03:10", to: "2026-11-22 02:40", err: true},
	} {
		got, err := ParseRange(tc.since, tc.from, tc.to, now, time.UTC)
		if (err != nil) != tc.err || (!tc.err && (!got.From.Equal(tc.want.From) || !got.To.Equal(tc.want.To))) {
			t.Errorf("ParseRange(%q, %q, %q) = %v, %v; want %v (error %v)", tc.since, tc.from, tc.to, got, err, tc.want, tc.err)
		}
	}
	if _, err := ParseRange("", "", "", now, time.UTC); err != nil {
		t.Error(errors.Unwrap(err))
	}
}
