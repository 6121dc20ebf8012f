package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A pass's folded holds and waits are held encoded, a few dozen bytes
// each and nothing the garbage collector need look into, a chunk a lock
// at a time; a chunk filled is set down in the pass's Spill, when it has
// one, so that what the pass holds of a long recording is bounded by the
// locks it follows rather than by their holds. Told, a lock's chunks
// are read back and decoded, one lock at a time.

// Spill is where a pass sets down its locks' folded holds and waits,
// appending, and reads them back at the offsets it wrote them at: a
// temporary file, say. Its writes need not be kept past the pass.
type Spill interface {
	io.Writer
	io.ReaderAt
}

// SpillTo has the pass set down its folded holds and waits in s; without
// it, they are kept encoded in memory. A write that fails keeps its
// chunk in memory: nothing is lost.
func (p *StoryPass) SpillTo(s Spill) { p.spill = s }

// Err is the first error reading a spill back: the stories told since
// lack the holds and waits it held.
func (p *StoryPass) Err() error { return p.spillErr }

// spillChunk is a filled chunk of a lock's folded records: at off in the
// spill, n bytes long, or data when it was set down nowhere.
type spillChunk struct {
	off  int64
	n    int
	data []byte
}

// foldChunk is the most a lock's chunk holds before it is set down: a
// pass over thousands of locks holds one of each.
const foldChunk = 1024

// Folded record kinds.
const (
	recSpan     byte = iota + 1 // a span, encoded
	recWait                     // a wait's length
	recHold                     // a hold's length
	recKept                     // a span kept as it is: its index in folds.kept
	recKeptTime                 // a wait's or hold's length kept as it is: its index in folds.keptTimes
)

// Span flags.
const (
	flHold = 1 << iota
	flBefore
	flGranted
	flOutOfOrder
	flSeen
	flReconstructed
	flSameNode
	flSameSession
	flExtra
)

// folds are a lock's folded records: the chunks set down, the one being
// filled, and the spans whose times the encoding would not give back as
// they were (another zone than Local or UTC), kept whole. The encoder's
// state (the previous record's node, session and time, deltas are from
// them) is its decoder's too, reading the records in order.
type folds struct {
	chunks    []spillChunk
	buf       []byte
	kept      []foldedSpan
	keptTimes []keptTime
	spans     int // spans folded
	coder     foldCoder
}

// keptTime is a wait's (recWait) or hold's (recHold) length kept as it is.
type keptTime struct {
	kind byte
	t    timedSpan
}

// foldCoder is what each record is encoded against.
type foldCoder struct {
	seq     int
	session int64
	node    string
	ns      int64
}

// enders lists the Enders a record names by number (0: none); another
// is written out after endLiteral.
var enders = []Ender{"", EndedByRelease, EndedByOperator, EndedByExpiry, EndedByUnknown, EndedByClose, EndedBySessionEnd,
	EndedByOwner, EndedByOther}

const endLiteral = 0xff

// foldSpan adds f to b's folded records.
func (p *StoryPass) foldSpan(b *storyBuilder, f foldedSpan) {
	fs := &b.folds
	fs.spans++
	if fs.buf == nil {
		fs.buf = make([]byte, 0, p.chunk+256)
	}
	if !fs.encodable(f) {
		fs.buf = binary.AppendUvarint(append(fs.buf, recKept), uint64(len(fs.kept)))
		fs.kept = append(fs.kept, f)
	} else {
		fs.buf = fs.coder.appendSpan(append(fs.buf, recSpan), f)
	}
	p.flushFolds(b)
}

// foldTime adds a wait's or hold's length to b's folded records.
func (p *StoryPass) foldTime(b *storyBuilder, kind byte, t timedSpan) {
	fs := &b.folds
	if fs.buf == nil {
		fs.buf = make([]byte, 0, p.chunk+256)
	}
	if !encodableTime(t.at) {
		fs.buf = binary.AppendUvarint(append(fs.buf, recKeptTime), uint64(len(fs.keptTimes)))
		fs.keptTimes = append(fs.keptTimes, keptTime{kind, t})
	} else {
		fs.buf = fs.coder.appendTime(append(fs.buf, kind), t.at)
		fs.buf = binary.AppendVarint(fs.buf, int64(t.d))
	}
	p.flushFolds(b)
}

// flushFolds sets b's chunk down once it is full.
func (p *StoryPass) flushFolds(b *storyBuilder) {
	fs := &b.folds
	if len(fs.buf) < p.chunk {
		return
	}
	c := spillChunk{off: p.spillAt, n: len(fs.buf)}
	if p.spill != nil && p.spillWriteErr == nil {
		if _, err := p.spill.Write(fs.buf); err != nil {
			// Past a failed write the spill's length is not known: keep
			// the rest in memory.
			p.spillWriteErr = err
		}
	}
	if p.spill == nil || p.spillWriteErr != nil {
		c.data = fs.buf
		fs.buf = make([]byte, 0, p.chunk+256)
	} else {
		p.spillAt += int64(c.n)
		fs.buf = fs.buf[:0]
	}
	fs.chunks = append(fs.chunks, c)
}

// unfold decodes b's folded records: its spans in the order they were
// folded, and its waits' and holds' lengths.
func (p *StoryPass) unfold(b *storyBuilder) (spans []foldedSpan, waits, holds []timedSpan) {
	fs := &b.folds
	var d foldCoder
	var read []byte
	decode := func(data []byte) error {
		for len(data) > 0 {
			kind := data[0]
			data = data[1:]
			var err error
			switch kind {
			case recSpan:
				var f foldedSpan
				if f, data, err = d.span(data); err == nil {
					spans = append(spans, f)
				}
			case recWait, recHold:
				var t timedSpan
				if t, data, err = d.timed(data); err == nil {
					if kind == recWait {
						waits = append(waits, t)
					} else {
						holds = append(holds, t)
					}
				}
			case recKept:
				var i uint64
				if i, data, err = uvarint(data); err == nil && i < uint64(len(fs.kept)) {
					spans = append(spans, fs.kept[i])
				} else if err == nil {
					err = errBadFold
				}
			case recKeptTime:
				var i uint64
				if i, data, err = uvarint(data); err == nil && i < uint64(len(fs.keptTimes)) {
					if k := fs.keptTimes[i]; k.kind == recWait {
						waits = append(waits, k.t)
					} else {
						holds = append(holds, k.t)
					}
				} else if err == nil {
					err = errBadFold
				}
			default:
				err = errBadFold
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range fs.chunks {
		data := c.data
		if data == nil {
			if cap(read) < c.n {
				read = make([]byte, c.n)
			}
			read = read[:c.n]
			if _, err := p.readSpill(read, c.off); err != nil {
				p.noteSpillErr(fmt.Errorf("stories: reading back %s's folded holds: %w", Printable(b.lock), err))
				return nil, nil, nil
			}
			data = read
		}
		if err := decode(data); err != nil {
			p.noteSpillErr(fmt.Errorf("stories: %s's folded holds: %w", Printable(b.lock), err))
			return nil, nil, nil
		}
	}
	if err := decode(fs.buf); err != nil {
		p.noteSpillErr(fmt.Errorf("stories: %s's folded holds: %w", Printable(b.lock), err))
		return nil, nil, nil
	}
	return spans, waits, holds
}

// readSpill reads the spill at off. The locks told side by side read it
// at once, and a Spill need not be safe for that.
func (p *StoryPass) readSpill(b []byte, off int64) (int, error) {
	p.spillMu.Lock()
	defer p.spillMu.Unlock()
	return p.spill.ReadAt(b, off)
}

func (p *StoryPass) noteSpillErr(err error) {
	p.spillMu.Lock()
	defer p.spillMu.Unlock()
	if p.spillErr == nil {
		p.spillErr = err
	}
}

// readErr is the spill's first failed read, if any.
func (p *StoryPass) readErr() error {
	p.spillMu.Lock()
	defer p.spillMu.Unlock()
	return p.spillErr
}

// errBadFold: a folded record read back is not one that was written.
var errBadFold = errors.New("a folded record is spoilt")
