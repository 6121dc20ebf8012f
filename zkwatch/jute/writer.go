package jute

import "encoding/binary"

// Writer appends jute-encoded values to a buffer. The zero Writer is ready
// to use; Bytes returns what was written.
type Writer struct {
	buf []byte
}

// Bytes returns the encoded record. The slice is the Writer's own: write
// nothing more while it is in use.
func (w *Writer) Bytes() []byte { return w.buf }

// Int writes a 32-bit integer.
func (w *Writer) Int(v int32) { w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(v)) }

// Long writes a 64-bit integer.
func (w *Writer) Long(v int64) { w.buf = binary.BigEndian.AppendUint64(w.buf, uint64(v)) }

// Bool writes a boolean as one byte.
func (w *Writer) Bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	w.buf = append(w.buf, b)
}

// Buffer writes a length-prefixed byte buffer. A nil buffer is written as
// length −1 (jute's null), an empty non-nil one as length 0: the server
// tells them apart (a SASL exchange begins with an empty, not a null,
// token).
func (w *Writer) Buffer(b []byte) {
	if b == nil {
		w.Int(-1)
		return
	}
	w.Int(int32(len(b)))
	w.buf = append(w.buf, b...)
}

// String writes a length-prefixed UTF-8 string (jute's ustring).
func (w *Writer) String(s string) {
	w.Int(int32(len(s)))
	w.buf = append(w.buf, s...)
}
