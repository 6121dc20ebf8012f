package txnlog

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"
)

// candidate is a snapshot of one member's data directory.
type candidate struct {
	snap file
	dir  *Dir
}

// startingTree reads the tree the range starts from: the newest snapshot
// whose following transaction is at or before from (the oldest the logs
// follow, when from is zero or earlier than any), skipping a snapshot that
// cannot be read whole (one being written); or an empty tree when the
// logs hold the history from its first transaction. It returns the
// snapshot's name.
func startingTree(dirs []*Dir, from time.Time, keeps func(string, int64) bool, warn func(error)) (*tree, string, error) {
	var cands []candidate
	for _, d := range dirs {
		for _, s := range d.snaps {
			if followed(dirs, s.zxid) {
				cands = append(cands, candidate{s, d})
			}
		}
	}
	// Newest first; when from is zero, the oldest is wanted first.
	sort.Slice(cands, func(i, j int) bool { return cands[i].snap.zxid > cands[j].snap.zxid })
	if from.IsZero() {
		sort.Slice(cands, func(i, j int) bool { return cands[i].snap.zxid < cands[j].snap.zxid })
	} else {
		// The newest whose next transaction is at or before from comes
		// first; the later ones are kept for when none is.
		for i, c := range cands {
			if at, ok := nextTime(dirs, c.snap.zxid); ok && !at.After(from) {
				cands = append(cands[i:], cands[:i]...)
				break
			}
			if i == len(cands)-1 {
				// None is that early: the oldest is the best there is.
				slicesReverse(cands)
			}
		}
	}
	var last error
	for _, c := range cands {
		t, err := readSnapshot(c.snap, keeps)
		if err != nil {
			warn(err)
			last = err
			continue
		}
		return t, filepath.Base(c.snap.path), nil
	}
	for _, d := range dirs {
		if len(d.logs) > 0 && d.logs[0].zxid&0xffffffff <= 1 && d.logs[0].zxid>>32 <= 1 {
			t := newTree()
			t.keeps = keeps
			return t, "", nil
		}
	}
	if len(cands) == 0 && !hasLogs(dirs) {
		return nil, "", fmt.Errorf("%s: %w%s", dirs[0].Path, ErrNoLogs, splitHint(dirs))
	}
	if last != nil {
		return nil, "", fmt.Errorf("%w: %s", ErrNoSnapshot, plain(last))
	}
	return nil, "", fmt.Errorf("%s: %w%s", dirs[0].Path, ErrNoSnapshot, splitHint(dirs))
}

// splitHint is what to give besides dirs when none holds both logs and
// snapshots: a server with a dataLogDir of its own writes its logs there
// and its snapshots in its dataDir.
func splitHint(dirs []*Dir) string {
	snaps, logs := false, false
	for _, d := range dirs {
		snaps, logs = snaps || len(d.snaps) > 0, logs || len(d.logs) > 0
	}
	switch {
	case snaps && !logs:
		return " (a server with a dataLogDir of its own writes its logs there: give that directory too, --recording once for each)"
	case logs && !snaps:
		return " (a server with a dataLogDir of its own writes its snapshots in its dataDir: give that directory too, --recording once for each)"
	}
	return ""
}

func slicesReverse(c []candidate) {
	for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
		c[i], c[j] = c[j], c[i]
	}
}

func hasLogs(dirs []*Dir) bool {
	for _, d := range dirs {
		if len(d.logs) > 0 {
			return true
		}
	}
	return false
}

// followed reports whether some member's logs go on from zxid: a log
// that begins at or before the transaction after it, or with the first
// transaction of a later epoch (an ensemble's first log begins at epoch
// 1's, after its members' snapshot.0).
func followed(dirs []*Dir, zxid int64) bool {
	for _, d := range dirs {
		if len(d.logs) == 0 {
			continue
		}
		first := d.logs[0].zxid
		if first <= zxid+1 || (first>>32 > zxid>>32 && first&0xffffffff == 1) {
			return true
		}
	}
	return false
}

// nextTime is the time of the first transaction after zxid in any
// member's logs, read from the records' headers alone.
func nextTime(dirs []*Dir, zxid int64) (time.Time, bool) {
	for _, d := range dirs {
		idx := -1
		for i, f := range d.logs {
			if f.zxid <= zxid+1 {
				idx = i
			}
		}
		for i := max(idx, 0); i < len(d.logs) && idx >= 0; i++ {
			l, err := openLog(d.logs[i].path)
			if err != nil {
				break
			}
			l.headersOnly = true
			for {
				rec, err := l.next()
				if errors.Is(err, io.EOF) || err != nil {
					break
				}
				if rec.Header.Zxid > zxid {
					l.Close()
					return time.UnixMilli(rec.Header.Time), true
				}
			}
			l.Close()
		}
	}
	return time.Time{}, false
}
