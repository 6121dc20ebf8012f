package txnlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/golang/snappy"
)

// snappyJava frames data as snappy-java's SnappyOutputStream does, in
// chunks of at most size bytes.
func snappyJava(data []byte, size int) []byte {
	out := append([]byte{}, snappyMagic...)
	out = binary.BigEndian.AppendUint32(out, 1)
	out = binary.BigEndian.AppendUint32(out, 1)
	for len(data) > 0 {
		n := min(size, len(data))
		block := snappy.Encode(nil, data[:n])
		out = binary.BigEndian.AppendUint32(out, uint32(len(block)))
		out = append(out, block...)
		data = data[n:]
	}
	return out
}

func TestSnappyStreamReadsChunksAndStreamsInARow(t *testing.T) {
	data := bytes.Repeat([]byte("a snapshot's bytes, "), 10_000)
	stream := append(snappyJava(data[:70_000], 32<<10), snappyJava(data[70_000:], 32<<10)...)
	s, err := newSnappyStream(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(s)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d of %d bytes, equal %v: %v", len(got), len(data), bytes.Equal(got, data), err)
	}
}

func TestSnappyStreamBadInput(t *testing.T) {
	good := snappyJava(bytes.Repeat([]byte("x"), 100_000), 32<<10)
	huge := append(append([]byte{}, good[:snappyHeaderSize]...), 0x7f, 0xff, 0xff, 0xff)
	for name, b := range map[string][]byte{
		"cut short in a chunk":  good[:len(good)-10],
		"cut short in a length": good[:snappyHeaderSize+2],
		"a chunk too large":     huge,
		"a chunk of garbage":    append(append([]byte{}, good[:snappyHeaderSize]...), 0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff),
	} {
		s, err := newSnappyStream(bytes.NewReader(b))
		if err == nil {
			_, err = io.ReadAll(s)
		}
		if !errors.Is(err, errSnappy) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := newSnappyStream(bytes.NewReader([]byte("ZKSN not snappy at all"))); !errors.Is(err, errSnappy) {
		t.Errorf("no header: %v", err)
	}
}
