package jute

import (
	"encoding/binary"
	"fmt"
	"io"
)

// MaxFrame bounds a frame read from a server: ZooKeeper's own default
// jute.maxbuffer (0xfffff, about 1 MB) plus room for a reply's header and
// a getChildren answer's names; a longer length is garbage or a server
// configured far past its defaults.
const MaxFrame = 16 << 20

// WriteFrame writes one length-prefixed frame, as a client connection
// sends every request.
func WriteFrame(w io.Writer, record []byte) error {
	frame := make([]byte, 4, 4+len(record))
	binary.BigEndian.PutUint32(frame, uint32(len(record)))
	_, err := w.Write(append(frame, record...))
	return err
}

// ReadFrame reads one length-prefixed frame of at most max bytes.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(head[:]))
	if n < 0 || int(n) > max {
		return nil, fmt.Errorf("%w: frame of %d bytes (at most %d)", ErrLength, n, max)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}
