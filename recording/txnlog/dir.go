package txnlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Errors of finding a data directory.
var (
	// ErrNotDataDir: the directory holds neither version-2/ nor logs or
	// snapshots.
	ErrNotDataDir = errors.New("txnlog: not a ZooKeeper data directory (no version-2/, no log.* or snapshot.* files)")
	// ErrClickHouseKeeper: the directory is ClickHouse Keeper's, whose
	// logs and snapshots are of another format.
	ErrClickHouseKeeper = errors.New("txnlog: a ClickHouse Keeper data directory: its changelogs and snapshots are of another format than ZooKeeper's, which zklocks reads")
	// ErrNoLogs: the data directory holds no transaction log.
	ErrNoLogs = errors.New("txnlog: no transaction log in the data directory")
)

// file is a log or snapshot of a data directory, by the zxid its name
// gives: a log's first transaction, a snapshot's last applied one.
type file struct {
	path string
	zxid int64
	// compressed names a snapshot's compression (".gz", ".snappy").
	compressed string
}

// Dir is a ZooKeeper data directory's logs and snapshots, found by their
// names, oldest first.
type Dir struct {
	// Path is the directory the files are in (its version-2/).
	Path  string
	logs  []file
	snaps []file
}

// IsDataDir reports whether path looks like a ZooKeeper data directory (or
// its version-2/, or a copy of either), or like ClickHouse Keeper's:
// whether the caller should read it with Open rather than as a recording.
func IsDataDir(path string) bool {
	if st, err := os.Stat(filepath.Join(path, "version-2")); err == nil && st.IsDir() {
		return true
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, _, ok := parseName(e.Name()); ok || isKeeperName(e.Name()) {
			return true
		}
	}
	return isKeeperDir(path)
}

// isKeeperDir reports whether path is ClickHouse Keeper's coordination
// directory: its log/ or snapshots/ hold Keeper's files.
func isKeeperDir(path string) bool {
	for _, sub := range []string{"log", "snapshots"} {
		entries, err := os.ReadDir(filepath.Join(path, sub))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if isKeeperName(e.Name()) {
				return true
			}
		}
	}
	return false
}

// Open finds the logs and snapshots of the data directory at path: the
// directory holding version-2/, version-2/ itself, or a copy of either.
// It reads no file but the directory.
func Open(path string) (*Dir, error) {
	dir := path
	if st, err := os.Stat(filepath.Join(path, "version-2")); err == nil && st.IsDir() {
		dir = filepath.Join(path, "version-2")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("txnlog: %w", err)
	}
	d := &Dir{Path: dir}
	keeper := false
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		kind, zxid, ok := parseName(e.Name())
		switch {
		case !ok:
			keeper = keeper || isKeeperName(e.Name())
		case kind == "log":
			d.logs = append(d.logs, file{path: filepath.Join(dir, e.Name()), zxid: zxid})
		default:
			d.snaps = append(d.snaps, file{path: filepath.Join(dir, e.Name()), zxid: zxid, compressed: snapSuffix(e.Name())})
		}
	}
	if len(d.logs) == 0 && len(d.snaps) == 0 {
		if keeper || isKeeperDir(path) {
			return nil, fmt.Errorf("%s: %w", path, ErrClickHouseKeeper)
		}
		return nil, fmt.Errorf("%s: %w", path, ErrNotDataDir)
	}
	sort.Slice(d.logs, func(i, j int) bool { return d.logs[i].zxid < d.logs[j].zxid })
	sort.Slice(d.snaps, func(i, j int) bool { return d.snaps[i].zxid < d.snaps[j].zxid })
	return d, nil
}

// parseName reads a log's or snapshot's name: log.<zxid hex>,
// snapshot.<zxid hex>[.gz|.snappy].
func parseName(name string) (kind string, zxid int64, ok bool) {
	kind, rest, found := strings.Cut(name, ".")
	if !found || (kind != "log" && kind != "snapshot") {
		return "", 0, false
	}
	if kind == "snapshot" {
		rest = strings.TrimSuffix(strings.TrimSuffix(rest, ".gz"), ".snappy")
	}
	z, err := strconv.ParseUint(rest, 16, 64)
	if err != nil {
		return "", 0, false
	}
	return kind, int64(z), true
}

// isKeeperName reports whether a file is ClickHouse Keeper's: its
// changelog_<from>_<to>.bin[.zstd] and snapshot_<idx>.bin[.zstd].
func isKeeperName(name string) bool {
	return (strings.HasPrefix(name, "changelog_") || strings.HasPrefix(name, "snapshot_")) && strings.Contains(name, ".bin")
}
