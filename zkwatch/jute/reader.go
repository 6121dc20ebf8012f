package jute

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
)

// ErrShort is the error of a Reader asked for more than its record holds.
var ErrShort = errors.New("jute: record ends early")

// ErrLength is the error of a Reader that met a length no record of this
// kind may have (negative other than −1, or longer than what is left).
var ErrLength = errors.New("jute: impossible length")

// Reader reads jute-encoded values from one record. Its error is sticky:
// after the first failure every read returns a zero value and Err says
// what failed and where, so a caller reads a whole record and checks once.
type Reader struct {
	buf []byte
	off int
	err error
	// src, when not nil, is a stream read as values are asked for (a
	// snapshot, too large to hold whole), of size bytes in all, through
	// the window buf (off counts from the stream's start, pos is the
	// window's read position); sum, when not nil, hears every byte read,
	// hashed up to hashed.
	src    io.Reader
	size   int
	pos    int
	sum    hash.Hash32
	hashed int
}

// NewReader reads the record b.
func NewReader(b []byte) *Reader { return &Reader{buf: b} }

// streamWindow is how much of a stream a Reader holds at once.
const streamWindow = 1 << 20

// NewStreamReader reads values from src as they are asked for, src
// holding size bytes in all (a file's length): no length read may exceed
// what is left of it. Every slice it returns is its own. sum, when not
// nil, is fed every byte read (see Sum).
func NewStreamReader(src io.Reader, size int64, sum hash.Hash32) *Reader {
	return &Reader{src: src, size: int(min(size, int64(^uint(0)>>1))), sum: sum, buf: make([]byte, 0, streamWindow)}
}

// Sum is a stream Reader's checksum of the bytes read so far.
func (r *Reader) Sum() uint32 {
	if r.sum == nil {
		return 0
	}
	r.sum.Write(r.buf[r.hashed:r.pos])
	r.hashed = r.pos
	return r.sum.Sum32()
}

// Err is the first error met, nil when every read so far succeeded.
func (r *Reader) Err() error { return r.err }

// Offset is how many bytes of the record have been read.
func (r *Reader) Offset() int { return r.off }

// Remaining is how many bytes of the record are left.
func (r *Reader) Remaining() int {
	if r.src != nil {
		return r.size - r.off
	}
	return len(r.buf) - r.off
}

func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > r.Remaining() {
		r.err = fmt.Errorf("%w: %d bytes wanted at offset %d of %d", ErrShort, n, r.off, r.off+r.Remaining())
		return nil
	}
	if r.src != nil {
		if len(r.buf)-r.pos < n {
			if err := r.fill(n); err != nil {
				r.err = fmt.Errorf("%w: %d bytes wanted at offset %d: %w", ErrShort, n, r.off, err)
				return nil
			}
		}
		b := r.buf[r.pos : r.pos+n]
		r.pos += n
		r.off += n
		return b
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

// fill moves what is left of the window to its front and reads from the
// stream until at least n bytes are there.
func (r *Reader) fill(n int) error {
	if r.sum != nil {
		r.sum.Write(r.buf[r.hashed:r.pos])
	}
	left := copy(r.buf[:cap(r.buf)], r.buf[r.pos:])
	if n > cap(r.buf) {
		grown := make([]byte, left, n+streamWindow)
		copy(grown, r.buf[:left])
		r.buf = grown
	}
	r.buf = r.buf[:cap(r.buf)]
	got, err := io.ReadAtLeast(r.src, r.buf[left:], n-left)
	r.buf = r.buf[:left+got]
	r.pos, r.hashed = 0, 0
	return err
}

// Int reads a 32-bit integer.
func (r *Reader) Int() int32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(b))
}

// Long reads a 64-bit integer.
func (r *Reader) Long() int64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// Bool reads a one-byte boolean.
func (r *Reader) Bool() bool {
	b := r.take(1)
	return b != nil && b[0] != 0
}

// Buffer reads a length-prefixed byte buffer: nil for jute's null (−1).
// The slice shares the record's memory (not a stream's).
func (r *Reader) Buffer() []byte {
	n := r.length()
	if n < 0 {
		return nil
	}
	b := r.take(n)
	if r.src != nil && b != nil {
		b = append([]byte{}, b...)
	}
	return b
}

// String reads a length-prefixed string; jute's null reads as "".
func (r *Reader) String() string {
	n := r.length()
	if n < 0 {
		return ""
	}
	return string(r.take(n))
}

// Count reads a vector's element count: −1 (null) reads as 0. A count
// that could not fit in what is left, at min bytes an element, is an
// error, so that garbage cannot make a caller allocate gigabytes.
func (r *Reader) Count(min int) int {
	n := r.length()
	if n < 0 {
		return 0
	}
	if min > 0 && n > r.Remaining()/min {
		r.fail(fmt.Errorf("%w: %d elements of at least %d bytes in %d left", ErrLength, n, min, r.Remaining()))
		return 0
	}
	return n
}

func (r *Reader) length() int {
	n := r.Int()
	if r.err != nil {
		return -1
	}
	if n < -1 || int(n) > r.Remaining() {
		r.fail(fmt.Errorf("%w: %d at offset %d with %d left", ErrLength, n, r.off-4, r.Remaining()))
		return -1
	}
	return int(n)
}

func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}
