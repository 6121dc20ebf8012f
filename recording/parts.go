package recording

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// Range is a stretch of time to read from a recording; a zero From or To
// leaves that side open.
type Range struct {
	From, To time.Time
}

// ErrNoParts: a history directory holds no part.
var ErrNoParts = errors.New("no recording part (history-*.zklocks) in the directory")

// ReadOptions configure ReadParts.
type ReadOptions struct {
	// Range limits the events passed on: those before From are folded into
	// the snapshot a reader starts from, those after To are not read.
	Range Range
	// Live names the part still being written, which ends in the middle
	// without that being worth a warning.
	Live string
	// Warn hears of each part skipped or cut short, by name; the reading
	// goes on with the next part.
	Warn func(error)
}

// ReadParts reads the parts of a recording in a row (in the order they
// were written, whatever the order of names), calling fn for each event,
// with snap true for the snapshot the range starts from; an error from fn
// ends the reading and is returned. A part whose
// header cannot be read is skipped; one that ends in the middle or has a
// corrupt line gives the events before it. Both are told to Warn, and
// the reading goes on.
//
// A part that continues the one before it (the same run, the next number,
// the one before read to its end) has its opening snapshot skipped, as
// Load does. Otherwise nothing watched between the two (the writer
// stopped, or a part is missing or spoilt): the reader is told with an
// EventConn, Closed since the last event before the gap, and the
// part is read whole, its snapshot included; and the locks known before
// the gap that the part's first sync does not list again are reported
// gone at that sync, as a watcher's re-sync would.
func ReadParts(names []string, opt ReadOptions, fn func(ev zkwatch.Event, snap bool) error) ([]Header, error) {
	if opt.Warn == nil {
		opt.Warn = func(error) {}
	}
	type part struct {
		name string
		h    Header
	}
	var parts []part
	for _, name := range names {
		h, err := ReadHeader(name)
		if err != nil {
			opt.Warn(fmt.Errorf("%s skipped: %w", name, err))
			continue
		}
		parts = append(parts, part{name, h})
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("recording: none of the %d parts could be read", len(names))
	}
	sort.SliceStable(parts, func(i, j int) bool {
		if !parts[i].h.Started.Equal(parts[j].h.Started) {
			return parts[i].h.Started.Before(parts[j].h.Started)
		}
		return parts[i].h.Part < parts[j].h.Part
	})
	// Read from the last part begun by From: its snapshot holds what
	// came before.
	first := 0
	for i, p := range parts {
		if !opt.Range.From.IsZero() && !p.h.Started.After(opt.Range.From) {
			first = i
		}
	}
	parts = parts[first:]
	st := &stitch{rng: opt.Range, fn: fn, live: map[string]bool{}, folded: newSnapshot()}
	var headers []Header
	for k, p := range parts {
		if st.done || (!opt.Range.To.IsZero() && k > 0 && p.h.Started.After(opt.Range.To)) {
			break
		}
		headers = append(headers, p.h)
		cont := k > 0 && st.clean && p.h.Run.Equal(parts[k-1].h.Run) && p.h.Part == parts[k-1].h.Part+1
		if k > 0 && !cont {
			st.gap()
		}
		err := readPart(p.name, func(ev zkwatch.Event, snap bool) bool {
			if !snap || !cont {
				st.event(ev)
			}
			return !st.done
		})
		st.clean = err == nil
		if err != nil && p.name != opt.Live {
			opt.Warn(err)
		}
	}
	st.end()
	return headers, st.err
}

// LoadParts reads parts as ReadParts does, into memory.
func LoadParts(names []string, opt ReadOptions) (*Recording, error) {
	rec := &Recording{}
	hs, err := ReadParts(names, opt, func(ev zkwatch.Event, _ bool) error {
		rec.Events = append(rec.Events, ev)
		return nil
	})
	rec.Headers = hs
	return rec, err
}

// LoadDir reads a history's directory as LoadParts does: every part in
// it, oldest first. The newest may be the one a running History writes:
// unless opt.Live names another, its end in the middle is no warning.
func LoadDir(dir string, opt ReadOptions) (*Recording, error) {
	parts, err := ListParts(dir)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoParts)
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.Name
	}
	if opt.Live == "" {
		opt.Live = names[len(names)-1]
	}
	return LoadParts(names, opt)
}

// readPart reads the part at name, calling fn for each event; a bad line
// ends it with a *LineError naming the file.
func readPart(name string, fn func(zkwatch.Event, bool) bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = readUntil(bufio.NewReaderSize(f, 64<<10), fn)
	var le *LineError
	if errors.As(err, &le) {
		le.File = name
	}
	return err
}

// stitch joins parts into one run of events and cuts them to a range.
type stitch struct {
	rng Range
	fn  func(zkwatch.Event, bool) error
	err error
	// clean: the last part was read to its end.
	clean bool
	// last is the latest event time; live the locks known.
	last time.Time
	live map[string]bool
	// stale are the locks known before a gap, not yet listed again after
	// it.
	stale map[string]bool
	// folded is what came before the range; started, whether the range
	// has begun; done, whether it has ended.
	folded        snapshot
	started, done bool
}

// gap tells of a stretch nothing watched, since the last event.
func (s *stitch) gap() {
	if s.last.IsZero() {
		return
	}
	s.pass(zkwatch.Event{Kind: zkwatch.EventConn, At: s.last, Conn: zkwatch.ConnState{Phase: zkwatch.Closed, Since: s.last}})
	s.stale = map[string]bool{}
	for p := range s.live {
		s.stale[p] = true
	}
}

func (s *stitch) event(ev zkwatch.Event) {
	switch ev.Kind {
	case zkwatch.EventLock:
		s.live[ev.Path] = true
		delete(s.stale, ev.Path)
	case zkwatch.EventLockGone, zkwatch.EventDenied:
		delete(s.live, ev.Path)
		delete(s.stale, ev.Path)
	case zkwatch.EventSynced:
		for _, p := range slices.Sorted(maps.Keys(s.stale)) {
			delete(s.live, p)
			s.pass(zkwatch.Event{Kind: zkwatch.EventLockGone, At: ev.At, Path: p})
		}
		s.stale = nil
	}
	s.pass(ev)
}

// pass hands ev on, or folds it into the snapshot the range starts from.
func (s *stitch) pass(ev zkwatch.Event) {
	if ev.At.After(s.last) {
		s.last = ev.At
	}
	if s.done {
		return
	}
	if !s.started && !s.rng.From.IsZero() && ev.At.Before(s.rng.From) {
		s.folded.apply(ev)
		return
	}
	if !s.started {
		s.begin()
	}
	if !s.rng.To.IsZero() && ev.At.After(s.rng.To) {
		s.done = true
		return
	}
	s.call(ev, false)
}

func (s *stitch) call(ev zkwatch.Event, snap bool) {
	if s.err == nil {
		s.err = s.fn(ev, snap)
	}
	if s.err != nil {
		s.done = true
	}
}

// begin passes on the snapshot of what came before the range.
func (s *stitch) begin() {
	s.started = true
	for _, ev := range s.folded.events() {
		s.call(ev, true)
	}
}

// end begins the range if no event was in it: what the reader gets is
// then the state it was in.
func (s *stitch) end() {
	if !s.started {
		s.begin()
	}
}
