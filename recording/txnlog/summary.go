package txnlog

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// Summary is how much history a data directory's logs hold.
type Summary struct {
	Dir       string
	Logs      int
	Snapshots int
	// LogBytes is the logs' size on disk (preallocated space included).
	LogBytes int64
	// FirstZxid and First are the oldest log's first transaction; LastZxid
	// and Last the newest one's last complete one.
	FirstZxid, LastZxid int64
	First, Last         time.Time
	// Note says what could not be read, when something could not.
	Note string
}

// Summarize says how much history the data directory at path holds: the
// logs' zxids and times, from their names, the oldest log's first record
// and a read of the newest log's records' headers.
func Summarize(path string) (Summary, error) {
	d, err := Open(path)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Dir: d.Path, Logs: len(d.logs), Snapshots: len(d.snaps)}
	for _, f := range d.logs {
		s.LogBytes += fileSize(f.path)
	}
	if len(d.logs) == 0 {
		return s, fmt.Errorf("%s: %w", d.Path, ErrNoLogs)
	}
	if rec, err := firstRecord(d.logs[0].path); err == nil {
		s.FirstZxid, s.First = rec.Header.Zxid, time.UnixMilli(rec.Header.Time)
	} else {
		s.Note = plain(err)
	}
	// The newest log with a record holds the last one.
	for i := len(d.logs) - 1; i >= 0; i-- {
		last, err := lastRecord(d.logs[i].path)
		if err != nil && s.Note == "" {
			s.Note = plain(err)
		}
		if last != nil {
			s.LastZxid, s.Last = last.Header.Zxid, time.UnixMilli(last.Header.Time)
			break
		}
	}
	return s, nil
}

func firstRecord(path string) (Record, error) {
	l, err := openLog(path)
	if err != nil {
		return Record{}, err
	}
	defer l.Close()
	l.headersOnly = true
	rec, err := l.next()
	if errors.Is(err, io.EOF) {
		return rec, fmt.Errorf("%s: no record", path)
	}
	return rec, err
}

// lastRecord is a log's last complete record, nil when it has none; the
// error says where a log cut short stopped.
func lastRecord(path string) (*Record, error) {
	l, err := openLog(path)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	l.headersOnly = true
	var last *Record
	for {
		rec, err := l.next()
		if errors.Is(err, io.EOF) {
			return last, nil
		}
		if err != nil {
			return last, err
		}
		last = &rec
	}
}

// SnapshotInfo is what one snapshot holds.
type SnapshotInfo struct {
	Zxid     int64
	Nodes    int
	Sessions int
}

// ReadSnapshot reads the snapshot at path whole, as a read of its data
// directory starts from it, checksum and all, and says what it holds.
func ReadSnapshot(path string) (SnapshotInfo, error) {
	kind, zxid, ok := parseName(filepath.Base(path))
	if !ok || kind != "snapshot" {
		return SnapshotInfo{}, fmt.Errorf("%s: %w (not named snapshot.<zxid>)", path, ErrNotLog)
	}
	t, err := readSnapshot(file{path: path, zxid: zxid, compressed: snapSuffix(path)}, nil)
	if err != nil {
		return SnapshotInfo{}, err
	}
	return SnapshotInfo{Zxid: zxid, Nodes: len(t.nodes), Sessions: len(t.sessions)}, nil
}

func snapSuffix(path string) string {
	switch ext := filepath.Ext(path); ext {
	case ".gz", ".snappy":
		return ext
	}
	return ""
}
