package txnlog

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/golang/snappy"
)

// snappyMagic begins the stream snappy-java's SnappyOutputStream writes,
// which is how ZooKeeper writes a snapshot under
// zookeeper.snapshot.compression.method=snappy: the magic, a version and
// a compatible version (both 1), then chunks, each a big-endian length
// and a raw snappy block.
var snappyMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

// snappyHeaderSize is the magic and the two versions.
const snappyHeaderSize = 16

// maxSnappyChunk bounds one chunk, compressed or not: snappy-java writes
// 32 KB blocks; a larger length is garbage, and must not make the reader
// allocate it.
const maxSnappyChunk = 16 << 20

// errSnappy: a snappy stream that is not one, or is cut short.
var errSnappy = errors.New("not a snappy-java stream")

// snappyStream reads what a snappy-java stream holds.
type snappyStream struct {
	r    *bufio.Reader
	in   []byte // the chunk read, compressed
	buf  []byte // the chunk decoded
	left []byte // what is still to be read of buf
}

func newSnappyStream(r io.Reader) (*snappyStream, error) {
	s := &snappyStream{r: bufio.NewReaderSize(r, 64<<10)}
	if err := s.header(); err != nil {
		return nil, err
	}
	return s, nil
}

// header reads a stream's header, checking its magic.
func (s *snappyStream) header() error {
	var h [snappyHeaderSize]byte
	if _, err := io.ReadFull(s.r, h[:]); err != nil || !bytes.Equal(h[:len(snappyMagic)], snappyMagic) {
		return fmt.Errorf("%w: no snappy-java header", errSnappy)
	}
	return nil
}

// Read implements io.Reader.
func (s *snappyStream) Read(p []byte) (int, error) {
	for len(s.left) == 0 {
		if err := s.chunk(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.left)
	s.left = s.left[n:]
	return n, nil
}

// chunk reads and decodes the next chunk: io.EOF at the stream's end.
func (s *snappyStream) chunk() error {
	head, err := s.r.Peek(4)
	switch {
	case len(head) == 0 && errors.Is(err, io.EOF):
		return io.EOF
	case err != nil:
		return fmt.Errorf("%w: cut short in a chunk's length", errSnappy)
	case bytes.Equal(head, snappyMagic[:4]):
		// Streams written one after the other read as one.
		return s.header()
	}
	s.r.Discard(4)
	n := binary.BigEndian.Uint32(head)
	if n > maxSnappyChunk {
		return fmt.Errorf("%w: a chunk of %d bytes", errSnappy, n)
	}
	s.in = grow(s.in, int(n))
	if _, err := io.ReadFull(s.r, s.in); err != nil {
		return fmt.Errorf("%w: cut short in a chunk of %d bytes", errSnappy, n)
	}
	size, err := snappy.DecodedLen(s.in)
	if err != nil || size > maxSnappyChunk {
		return fmt.Errorf("%w: a chunk that does not decode", errSnappy)
	}
	if s.buf, err = snappy.Decode(grow(s.buf, size), s.in); err != nil {
		return fmt.Errorf("%w: a chunk that does not decode: %w", errSnappy, err)
	}
	s.left = s.buf
	return nil
}

// grow is b with length n, reusing its array when it is large enough.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
