package recording

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/zklocks/zklocks/zkwatch"
)

// Errors a reading can end with; a *LineError says where.
var (
	// ErrNotRecording: the file is not a zklocks recording.
	ErrNotRecording = errors.New("not a zklocks recording")
	// ErrTruncated: the file ends in the middle of a line or of the gzip
	// stream, as a recording does when its writer was killed.
	ErrTruncated = errors.New("the recording ends in the middle (its writer stopped without closing it)")
	// ErrNewer: the recording's format is newer than this zklocks reads.
	ErrNewer = errors.New("the recording's format is newer than this zklocks reads")
)

// LineError is a reading that stopped at a line: the events before it
// were read.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s: line %d: %v; the %d lines before it were read", e.File, e.Line, e.Err, max(e.Line-1, 0))
}

func (e *LineError) Unwrap() error { return e.Err }

// Recording is what was read from a recording's parts, in order.
type Recording struct {
	// Headers are the parts' headers, oldest first.
	Headers []Header
	// Events are the watcher's events in the order it sent them.
	Events []zkwatch.Event
}

// Load reads the parts of a recording (in any order; they are put in the
// order they were written) and returns their events. A later part's
// opening snapshot is skipped: the earlier parts already led up to it.
// When a part cannot be read to its end, Load returns what came before
// the bad line with a *LineError, and reads no later part.
func Load(files ...string) (*Recording, error) {
	type opened struct {
		name string
		f    *os.File
		r    *bufio.Reader
		zr   *gzip.Reader
		h    Header
	}
	var parts []opened
	defer func() {
		for _, p := range parts {
			p.f.Close()
		}
	}()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		p := opened{name: name, f: f}
		parts = append(parts, p)
		zr, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return nil, &LineError{File: name, Line: 1, Err: fmt.Errorf("%w (not gzip: %v)", ErrNotRecording, err)}
		}
		zr.Multistream(false)
		p.zr, p.r = zr, bufio.NewReaderSize(zr, 64<<10)
		b, err := readLine(p.r)
		if err != nil {
			return nil, &LineError{File: name, Line: 1, Err: err}
		}
		if p.h, err = parseHeader(b); err != nil {
			return nil, &LineError{File: name, Line: 1, Err: err}
		}
		parts[len(parts)-1] = p
	}
	sort.SliceStable(parts, func(i, j int) bool {
		if !parts[i].h.Started.Equal(parts[j].h.Started) {
			return parts[i].h.Started.Before(parts[j].h.Started)
		}
		return parts[i].h.Part < parts[j].h.Part
	})
	rec := &Recording{}
	for k, p := range parts {
		rec.Headers = append(rec.Headers, p.h)
		err := readEvents(p.r, p.h, func(ev zkwatch.Event, snap bool) bool {
			if !snap || k == 0 {
				rec.Events = append(rec.Events, ev)
			}
			return true
		})
		if err != nil {
			err.File = p.name
			return rec, err
		}
	}
	return rec, nil
}

// Read reads one part from r, calling fn for each event with whether it
// belongs to the part's opening snapshot. It stops at the first bad
// line, returning a *LineError (File empty), after calling fn for every
// event before it.
func Read(r io.Reader, fn func(ev zkwatch.Event, snap bool)) (Header, error) {
	return readUntil(r, func(ev zkwatch.Event, snap bool) bool { fn(ev, snap); return true })
}

// readUntil is Read, stopping early (without an error) when fn returns
// false.
func readUntil(r io.Reader, fn func(ev zkwatch.Event, snap bool) bool) (Header, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return Header{}, &LineError{Line: 1, Err: fmt.Errorf("%w (not gzip: %v)", ErrNotRecording, err)}
	}
	zr.Multistream(false)
	br := bufio.NewReaderSize(zr, 64<<10)
	b, err := readLine(br)
	if err != nil {
		return Header{}, &LineError{Line: 1, Err: err}
	}
	h, err := parseHeader(b)
	if err != nil {
		return h, &LineError{Line: 1, Err: err}
	}
	if err := readEvents(br, h, fn); err != nil {
		return h, err
	}
	return h, nil
}

func parseHeader(b []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil || h.Format == 0 {
		return h, fmt.Errorf("%w (no header line)", ErrNotRecording)
	}
	if h.Format > Version {
		return h, fmt.Errorf("%w (format %d; this zklocks reads %d)", ErrNewer, h.Format, Version)
	}
	return h, nil
}

func readEvents(r *bufio.Reader, h Header, fn func(zkwatch.Event, bool) bool) *LineError {
	d := newDecoder(h.Started, h.Format)
	for n := 2; ; n++ {
		b, err := readLine(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &LineError{Line: n, Err: err}
		}
		ev, snap, err := d.decode(b)
		if err != nil {
			return &LineError{Line: n, Err: fmt.Errorf("corrupt line: %w", err)}
		}
		if !fn(ev, snap) {
			return nil
		}
	}
}

// readLine returns the next whole line without its newline; io.EOF at a
// clean end; ErrTruncated when the stream stops inside a line or before
// the gzip trailer.
func readLine(r *bufio.Reader) ([]byte, error) {
	b, err := r.ReadBytes('\n')
	switch {
	case err == nil:
		return bytes.TrimSuffix(b, []byte("\n")), nil
	case errors.Is(err, io.EOF) && len(b) == 0:
		return nil, io.EOF
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, ErrTruncated
	}
	return nil, fmt.Errorf("corrupt stream: %w", err)
}
