package recording

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// streamFlushEvery is how many events a range's stream holds back at
// most before it pushes them on, so that a reader sees it move.
const streamFlushEvery = 2000

// WriteRange writes the events of the history's range r to w as one
// recording (a single part, opening with the snapshot of what came before
// the range), as it reads them from the parts: nothing is held in memory
// but a part's tables. flush, when not nil, is called each time the
// stream has been pushed on to w (an HTTP handler flushes its response
// there). A part spoilt or cut short is skipped and told to warn, as
// ReadParts does; an error writing to w ends the stream and is returned.
//
// It reads the parts on disk, never what Write is doing: a slow w holds
// up only its own reading.
func (h *History) WriteRange(w io.Writer, r Range, warn func(error), flush func()) error {
	h.Flush()
	parts, err := ListParts(h.dir)
	if err != nil {
		return err
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.Name
	}
	hd := h.opt.Header
	hd.Format, hd.Part, hd.Started = Version, 1, h.opt.Now()
	if !r.From.IsZero() {
		hd.Started = r.From
	}
	gz, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	b, err := json.Marshal(hd)
	if err != nil {
		return err
	}
	if _, err := gz.Write(append(b, '\n')); err != nil {
		return err
	}
	enc := newEncoder(hd.Started)
	n := 0
	push := func() error {
		if err := gz.Flush(); err != nil {
			return err
		}
		if flush != nil {
			flush()
		}
		return nil
	}
	_, err = ReadParts(names, ReadOptions{Range: r, Live: h.Current(), Warn: warn}, func(ev zkwatch.Event, snap bool) error {
		line, err := enc.encode(ev, snap)
		if err != nil {
			return fmt.Errorf("recording: encoding a %s event: %w", kindNames[ev.Kind], err)
		}
		if _, err := gz.Write(line); err != nil {
			return err
		}
		if n++; n%streamFlushEvery == 0 {
			return push()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return gz.Close()
}

// ParseRange reads a range as people give one: since, a duration back
// from now (1h, 90m); or from and to, each an RFC 3339 time, a date and
// time ("2026-11-22 02:40") or a time of day ("02:40", "02:40:05") in
// loc, the latest such moment not after now. Either of from and to may be
// left empty; since goes with neither.
func ParseRange(since, from, to string, now time.Time, loc *time.Location) (Range, error) {
	var r Range
	if since != "" {
		if from != "" || to != "" {
			return r, fmt.Errorf("since goes without from and to")
		}
		d, err := time.ParseDuration(since)
		if err != nil || d <= 0 {
			return r, fmt.Errorf("since %q: give a duration back from now, as 10m, 1h or 36h", since)
		}
		r.From = now.Add(-d)
		return r, nil
	}
	var err error
	if from != "" {
		if r.From, err = parseMoment(from, now, loc); err != nil {
			return r, fmt.Errorf("from %w", err)
		}
	}
	if to != "" {
		if r.To, err = parseMoment(to, now, loc); err != nil {
			return r, fmt.Errorf("to %w", err)
		}
	}
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		// A range across midnight given as times of day.
		if len(to) <= len("15:04:05.000000") {
			r.From = r.From.AddDate(0, 0, -1)
		}
		if r.To.Before(r.From) {
			return r, fmt.Errorf("to %s is before from %s", r.To.Format(time.RFC3339), r.From.Format(time.RFC3339))
		}
	}
	return r, nil
}

// parseMoment reads one end of a range (see ParseRange): a time of day
// is the latest such moment not after now.
func parseMoment(s string, now time.Time, loc *time.Location) (time.Time, error) {
	t, timeOfDay, ok := ParseMoment(s, now, loc)
	if !ok {
		return time.Time{}, fmt.Errorf("%q is not a time: give 02:40, 02:40:05, 2026-11-22 02:40 or an RFC 3339 time", s)
	}
	if timeOfDay && t.After(now) {
		t = t.AddDate(0, 0, -1)
	}
	return t, nil
}

// ParseMoment reads a moment as people type it: an RFC 3339 time, a date
// and time in loc ("2026-11-22 02:40", "2026-11-22T02:40:05.5"), or a time
// of day in loc ("02:40", "02:40:05.5"), which it puts on the day of ref
// in loc and reports with timeOfDay, for the caller to move to another
// day as its own rule says. ok is false when s is none of these.
func ParseMoment(s string, ref time.Time, loc *time.Location) (t time.Time, timeOfDay, ok bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, false, true
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, false, true
		}
	}
	for _, layout := range []string{"15:04:05.999999999", "15:04"} {
		if clock, err := time.ParseInLocation(layout, s, loc); err == nil {
			day := ref.In(loc)
			return time.Date(day.Year(), day.Month(), day.Day(), clock.Hour(), clock.Minute(), clock.Second(), clock.Nanosecond(), loc), true, true
		}
	}
	return time.Time{}, false, false
}
