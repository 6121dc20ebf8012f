package recording

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// FlushEvery is how often a Writer pushes what it has compressed to the
// file: what a crash can lose.
const FlushEvery = time.Second

// Options configure a Writer.
type Options struct {
	// Header is written at the start of each part; Format, Started and
	// Part are filled in.
	Header Header
	// MaxSize rotates the recording once its current part holds about this
	// many bytes; zero never rotates.
	MaxSize int64
	// Keep is how many full parts (FILE.1 …) are kept beside the current
	// one; zero keeps them all.
	Keep int
	// Now is the clock for part headers; nil means time.Now.
	Now func() time.Time
	// MaxAge also rotates the recording once its current part began this
	// long ago (by Now, checked at each Write); zero never does.
	MaxAge time.Duration
	// Name, when set, names each part by its number and start, and a
	// rotation starts the next part under its own name rather than
	// renaming the full ones (Keep is then ignored): a part's name never
	// changes, so that a reader can read it while the recording goes on.
	// The path given to Create is then unused.
	Name func(part int, started time.Time) string
	// FirstPart is the number of the first part; zero means 1. A
	// recording that continues an earlier one's parts numbers on from
	// them.
	FirstPart int
	// Rotated, when set, is called with the name of each part a rotation
	// closed, once the next part is open.
	Rotated func(closed string)
}

// Writer records events to a file. It is safe for concurrent use; Close
// ends the gzip stream.
type Writer struct {
	mu        sync.Mutex
	path      string
	opt       Options
	f         *os.File
	cnt       *countWriter
	gz        *gzip.Writer
	enc       *encoder
	part      int
	partStart time.Time
	snap      snapshot
	events    int64
	// unflushed counts the bytes given to gz since it last flushed: gzip
	// holds them until it has a block's worth, so that the file's size,
	// which MaxSize is checked against, lags what was written.
	unflushed  int64
	err        error
	stop, done chan struct{}
}

// Create starts a recording at path (truncating what is there) and
// flushes it every FlushEvery until Close.
func Create(path string, opt Options) (*Writer, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	w := &Writer{path: path, opt: opt, snap: newSnapshot(), stop: make(chan struct{}), done: make(chan struct{})}
	w.part = max(opt.FirstPart, 1) - 1
	if err := w.open(); err != nil {
		return nil, err
	}
	go w.flusher()
	return w, nil
}

func (w *Writer) open() error {
	started := w.opt.Now()
	if w.opt.Name != nil {
		w.path = w.opt.Name(w.part+1, started)
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	w.part++
	w.partStart = started
	h := w.opt.Header
	h.Format, h.Started, h.Part = Version, started, w.part
	w.f, w.cnt = f, &countWriter{w: f}
	w.gz, _ = gzip.NewWriterLevel(w.cnt, gzip.BestCompression)
	w.enc = newEncoder(h.Started)
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if _, err := w.gz.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return w.gz.Flush()
}

// Write records ev. After a failure, it and every later call return the
// error, and nothing more is written.
func (w *Writer) Write(ev zkwatch.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.snap.apply(ev)
	if err := w.write(ev, false); err != nil {
		w.err = err
		return err
	}
	w.events++
	if (w.opt.MaxSize > 0 && w.cnt.n >= w.opt.MaxSize) || (w.opt.MaxAge > 0 && w.opt.Now().Sub(w.partStart) >= w.opt.MaxAge) {
		if err := w.rotate(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

func (w *Writer) write(ev zkwatch.Event, snap bool) error {
	b, err := w.enc.encode(ev, snap)
	if err != nil {
		return fmt.Errorf("recording: encoding a %s event: %w", kindNames[ev.Kind], err)
	}
	if _, err := w.gz.Write(b); err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	// A part is rotated by the size of its file, which grows only as
	// gzip lets go of what it holds: flushing after a quarter of MaxSize
	// given keeps a part within about a quarter of MaxSize of it, however
	// often the clock's flushes come.
	if w.unflushed += int64(len(b)); w.opt.MaxSize > 0 && w.unflushed >= w.opt.MaxSize/4 {
		w.unflushed = 0
		if err := w.gz.Flush(); err != nil {
			return fmt.Errorf("recording: %w", err)
		}
	}
	return nil
}

// rotate closes the current part, shifts the full ones up (FILE becomes
// FILE.1) unless parts have names of their own, and opens a new part
// with a snapshot.
func (w *Writer) rotate() error {
	if err := w.closeFile(); err != nil {
		return err
	}
	if w.opt.Name != nil {
		closed := w.path
		if err := w.openWithSnapshot(); err != nil {
			return err
		}
		if w.opt.Rotated != nil {
			w.opt.Rotated(closed)
		}
		return nil
	}
	for i := w.part - 1; i >= 1; i-- {
		from := w.path + "." + strconv.Itoa(i)
		if w.opt.Keep > 0 && i >= w.opt.Keep {
			os.Remove(from)
			continue
		}
		if err := os.Rename(from, w.path+"."+strconv.Itoa(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("recording: %w", err)
		}
	}
	if err := os.Rename(w.path, w.path+".1"); err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return w.openWithSnapshot()
}

// openWithSnapshot opens the next part and writes the snapshot it starts
// with.
func (w *Writer) openWithSnapshot() error {
	if err := w.open(); err != nil {
		return err
	}
	for _, ev := range w.snap.events() {
		if err := w.write(ev, true); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) closeFile() error {
	err := w.gz.Close()
	if e := w.f.Close(); err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return nil
}

func (w *Writer) flusher() {
	defer close(w.done)
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.Flush()
		}
	}
}

// Flush pushes what has been compressed so far to the file, as a
// readable end of the gzip stream so far, and asks the system to keep it.
func (w *Writer) Flush() error {
	w.mu.Lock()
	if w.err != nil || w.gz == nil {
		defer w.mu.Unlock()
		return w.err
	}
	err := w.gz.Flush()
	f := w.f
	w.mu.Unlock()
	if err != nil {
		return err
	}
	// Outside the lock: a slow disk must not hold up events.
	f.Sync()
	return nil
}

// Events is how many events have been stored.
func (w *Writer) Events() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.events
}

// Current is the name of the part being written.
func (w *Writer) Current() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.path
}

// Close ends the recording: the stream's end is written and the file
// closed. It returns the first error the recording met.
func (w *Writer) Close() error {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gz == nil {
		return w.err
	}
	err := w.closeFile()
	w.gz = nil
	if w.err != nil {
		return w.err
	}
	return err
}

// Tee records every event from in and passes it on, in order, on the
// channel it returns, which closes after in does. A recording that fails
// stops recording; events still pass.
func Tee(in <-chan zkwatch.Event, w *Writer) <-chan zkwatch.Event {
	out := make(chan zkwatch.Event, cap(in))
	go func() {
		defer close(out)
		for ev := range in {
			w.Write(ev)
			out <- ev
		}
	}()
	return out
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// snapshot is what a new part must start with so it replays on its own:
// the latest event of each kind that sets state, and every lock.
type snapshot struct {
	conn, servers, disc, synced *zkwatch.Event
	locks                       map[string]zkwatch.Event
	denied                      map[string]zkwatch.Event
}

func newSnapshot() snapshot {
	return snapshot{locks: map[string]zkwatch.Event{}, denied: map[string]zkwatch.Event{}}
}

func (s *snapshot) apply(ev zkwatch.Event) {
	switch ev.Kind {
	case zkwatch.EventConn:
		s.conn = &ev
	case zkwatch.EventServers:
		s.servers = &ev
	case zkwatch.EventDiscovery:
		s.disc = &ev
	case zkwatch.EventSynced:
		s.synced = &ev
	case zkwatch.EventLock:
		s.locks[ev.Path] = ev
		delete(s.denied, ev.Path)
	case zkwatch.EventLockGone:
		delete(s.locks, ev.Path)
	case zkwatch.EventDenied:
		s.denied[ev.Path] = ev
	}
}

// events are the snapshot in an order that Apply turns into the same
// state (bar the event log, which starts after the sync): the locks
// before the sync marker, so that they are not logged as joins.
func (s *snapshot) events() []zkwatch.Event {
	var out []zkwatch.Event
	for _, ev := range []*zkwatch.Event{s.conn, s.servers, s.disc} {
		if ev != nil {
			out = append(out, *ev)
		}
	}
	for _, m := range []map[string]zkwatch.Event{s.locks, s.denied} {
		for _, p := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[p])
		}
	}
	if s.synced != nil {
		out = append(out, *s.synced)
	}
	return out
}
