package txnlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"os"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// Errors of reading a data directory's files.
var (
	// ErrTruncated: a log ends in the middle of a record (a copy taken
	// while it was written, or a file cut short).
	ErrTruncated = errors.New("txnlog: log ends in the middle of a record")
	// ErrChecksum: a record's Adler32 checksum does not match its bytes.
	ErrChecksum = errors.New("txnlog: record checksum does not match")
	// ErrNotLog: a file named like a log or snapshot is not one (another
	// magic number or version, or garbage).
	ErrNotLog = errors.New("txnlog: not a ZooKeeper transaction log or snapshot of version 2")
	// ErrRecord: a record's checksum matches but its content does not
	// decode as a transaction.
	ErrRecord = errors.New("txnlog: record does not decode")
)

// maxRecord bounds one record's length: ZooKeeper's jute.maxbuffer
// default (1 MB) with room for a multi's parts; a longer length is
// garbage.
const maxRecord = 64 << 20

// Record is one transaction of a log. Its Txn's Data shares the log's
// buffer: it is good until the log's next record is read.
type Record struct {
	Header jute.TxnHeader
	Txn    jute.Txn
	// Sum is the record's checksum, which tells members' copies of the
	// same transaction apart when they differ.
	Sum int64
}

// logFile reads one transaction log forward, a record at a time.
type logFile struct {
	path string
	f    *os.File
	r    *bufio.Reader
	off  int64 // of the next record
	// headersOnly skips decoding bodies (a scan for a zxid's time).
	headersOnly bool
	// body is the record buffer, reused: what a Record keeps of it is
	// copied (jute's strings; the tree copies data).
	body []byte
	// ahead, when not nil, is the log read ahead (see readAhead).
	ahead *readAhead
}

// openLog opens a log and checks its header.
func openLog(path string) (*logFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	l := &logFile{path: path, f: f, r: bufio.NewReaderSize(f, 256<<10)}
	head := make([]byte, jute.FileHeaderSize)
	if _, err := io.ReadFull(l.r, head); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%d bytes, shorter than a header)", path, ErrNotLog, fileSize(path))
	}
	h := jute.ReadFileHeader(jute.NewReader(head))
	if h.Magic != jute.LogMagic || h.Version != jute.FileVersion {
		f.Close()
		return nil, fmt.Errorf("%s: %w (magic %#x, version %d)", path, ErrNotLog, uint32(h.Magic), h.Version)
	}
	l.off = jute.FileHeaderSize
	return l, nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func (l *logFile) Close() error {
	if l.ahead != nil {
		l.ahead.stop()
		l.ahead = nil
	}
	return l.f.Close()
}

// next reads the next record: io.EOF at the log's end (the end of the
// file, or the zeros the server preallocates past its last record),
// ErrTruncated or ErrChecksum (with the offset) where it cannot go on.
func (l *logFile) next() (Record, error) {
	if l.ahead != nil {
		return l.ahead.next()
	}
	return l.read()
}

// read is next from the file itself.
func (l *logFile) read() (Record, error) {
	var head [12]byte
	n, err := io.ReadFull(l.r, head[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return Record{}, io.EOF
	case err != nil:
		return Record{}, l.truncated("in a record's checksum and length")
	}
	sum := int64(binary.BigEndian.Uint64(head[:8]))
	length := int32(binary.BigEndian.Uint32(head[8:]))
	if length == 0 {
		// The preallocated zeros after the last record (a checksum and
		// length of 0 can only be them).
		return Record{}, io.EOF
	}
	if length < 0 || length > maxRecord {
		return Record{}, fmt.Errorf("%s: %w at offset %d: a record of %d bytes", l.path, ErrRecord, l.off, length)
	}
	if cap(l.body) < int(length)+1 {
		l.body = make([]byte, int(length)+1+4096)
	}
	body := l.body[:int(length)+1]
	if _, err := io.ReadFull(l.r, body); err != nil {
		return Record{}, l.truncated(fmt.Sprintf("in a record of %d bytes", length))
	}
	if body[length] != 'B' {
		return Record{}, fmt.Errorf("%s: %w at offset %d: no end-of-record mark", l.path, ErrRecord, l.off)
	}
	body = body[:length]
	if int64(adler32.Checksum(body)) != sum {
		return Record{}, fmt.Errorf("%s: %w at offset %d", l.path, ErrChecksum, l.off)
	}
	r := jute.NewReader(body)
	rec := Record{Header: jute.ReadTxnHeader(r), Sum: sum}
	if !l.headersOnly {
		rec.Txn = jute.ReadTxn(r, rec.Header.Type)
	}
	if r.Err() != nil {
		return Record{}, fmt.Errorf("%s: %w at offset %d (zxid %#x): %w", l.path, ErrRecord, l.off, rec.Header.Zxid, r.Err())
	}
	l.off += 12 + int64(length) + 1
	return rec, nil
}

func (l *logFile) truncated(where string) error {
	return fmt.Errorf("%s: %w at offset %d (%s): read up to there", l.path, ErrTruncated, l.off, where)
}
