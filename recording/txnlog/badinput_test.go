package txnlog

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// endOf is how the first hold of lock ended in res.
func endOf(t *testing.T, res *Result, lock string) string {
	t.Helper()
	st := model.TellStory(res.Recording.Events, lock, time.Time{}, time.Time{})
	if len(st.Holds) == 0 {
		return ""
	}
	return st.Holds[0].End
}

func TestFixtureTellsEachEnd(t *testing.T) {
	dir := fixture(t)
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) > 0 || len(res.Members) > 0 {
		t.Errorf("partial %v, members %v", res.Partial, res.Members)
	}
	for lock, want := range map[string]string{"/locks/released": model.EndReleased, "/locks/forced": model.EndForced,
		"/locks/killed": model.EndExpired, "/locks/closed": model.EndClosed, "/locks/frozen": model.EndExpired} {
		if got := endOf(t, res, lock); got != want {
			t.Errorf("%s ended %q, want %q", lock, got, want)
		}
	}
	// A lock's contenders are not locks of their own, whatever their
	// names say.
	locks := map[string]bool{}
	for _, ev := range res.Recording.Events {
		if ev.Path != "" {
			locks[ev.Path] = true
		}
	}
	for p := range locks {
		if locks[path.Dir(p)] {
			t.Errorf("%s reported as a lock, below the lock %s", p, path.Dir(p))
		}
	}
	// version-2/ itself reads the same, and one lock followed alone
	// ends the same.
	one, err := Load(context.Background(), []string{dir + "/version-2"}, Options{Lock: "/locks/killed"})
	if err != nil {
		t.Fatal(err)
	}
	if got := endOf(t, one, "/locks/killed"); got != model.EndExpired {
		t.Errorf("followed alone, /locks/killed ended %q", got)
	}
}

func TestLiveLogPreallocatedWithZeros(t *testing.T) {
	dir := fixture(t)
	whole, err := Load(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, v2(dir, "log.20"), func(b []byte) []byte { return append(b, make([]byte, 1<<20)...) })
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) > 0 || res.Last != whole.Last || len(res.Recording.Events) != len(whole.Recording.Events) {
		t.Errorf("zeros past the end: partial %v, last %#x (want %#x)", res.Partial, res.Last, whole.Last)
	}
}

func TestLogTruncatedMidRecordReadsUpToIt(t *testing.T) {
	dir := fixture(t)
	offs := recordOffsets(t, v2(dir, "log.20"))
	cut := offs[len(offs)-2] + 20 // inside the last record
	rewrite(t, v2(dir, "log.20"), func(b []byte) []byte { return b[:cut] })
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) != 1 || !strings.Contains(res.Partial[0], "middle of a record") || !strings.Contains(res.Partial[0], "offset") {
		t.Errorf("partial = %q, want where the log stopped", res.Partial)
	}
	if res.Last == 0 {
		t.Error("nothing read before the cut")
	}
}

func TestChecksumMismatchStopsThatLogAndSaysTheGap(t *testing.T) {
	dir := fixture(t)
	offs := recordOffsets(t, v2(dir, "log.1"))
	at := offs[len(offs)/2]
	rewrite(t, v2(dir, "log.1"), func(b []byte) []byte { b[at+12+30] ^= 0xff; return b })
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Partial, "\n")
	if !strings.Contains(all, "checksum does not match") || !strings.Contains(all, "no log holds zxids") {
		t.Errorf("partial = %q, want the checksum and the gap it leaves", res.Partial)
	}
}

func TestGapInZxidsIsSaid(t *testing.T) {
	dir := fixture(t)
	offs := recordOffsets(t, v2(dir, "log.1"))
	rewrite(t, v2(dir, "log.1"), func(b []byte) []byte { return b[:offs[len(offs)-4]] })
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) != 1 || !strings.Contains(res.Partial[0], "no log holds zxids 0x1d to 0x1f") {
		t.Errorf("partial = %q, want the missing zxids", res.Partial)
	}
}

func TestWrongMagicAndGarbageNamedLikeALog(t *testing.T) {
	for name, content := range map[string][]byte{
		"wrong magic":   append([]byte("ZKSN\x00\x00\x00\x02"), make([]byte, 40)...),
		"wrong version": append([]byte("ZKLG\x00\x00\x00\x07"), make([]byte, 40)...),
		"garbage":       []byte("this is not a transaction log at all, only words"),
		"empty":         {},
	} {
		t.Run(name, func(t *testing.T) {
			dir := fixture(t)
			if err := os.WriteFile(v2(dir, "log.30"), content, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := loadUntouched(t, []string{dir}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Partial) != 1 || !strings.Contains(res.Partial[0], "log.30") || !strings.Contains(res.Partial[0], "not a ZooKeeper transaction log") {
				t.Errorf("partial = %q", res.Partial)
			}
		})
	}
}

func TestSnapshotOfAnotherVersion(t *testing.T) {
	dir := fixture(t)
	rewrite(t, v2(dir, "snapshot.1f"), func(b []byte) []byte { b[7] = 9; return b })
	os.Remove(v2(dir, "snapshot.0"))
	os.Remove(v2(dir, "log.1"))
	var warned []error
	_, err := loadUntouched(t, []string{dir}, Options{Warn: func(err error) { warned = append(warned, err) }})
	if !errors.Is(err, ErrNoSnapshot) || !strings.Contains(err.Error(), "another version") {
		t.Errorf("err = %v, want no snapshot, saying why", err)
	}
	if len(warned) != 1 || !errors.Is(warned[0], ErrNotLog) {
		t.Errorf("warned %v", warned)
	}
}

func TestSnapshotBeingWrittenFallsBackToTheOlder(t *testing.T) {
	dir := fixture(t)
	rewrite(t, v2(dir, "snapshot.1f"), func(b []byte) []byte { return b[:len(b)/2] })
	end := time.UnixMilli(1 << 60)
	var warned []error
	res, err := loadUntouched(t, []string{dir}, Options{Range: recording.Range{From: end}, Warn: func(err error) { warned = append(warned, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Snapshot != "snapshot.0" || len(warned) == 0 || !errors.Is(warned[0], ErrSnapshot) {
		t.Errorf("read from %q, warned %v", res.Snapshot, warned)
	}
}

func TestRangeNoLogCovers(t *testing.T) {
	dir := fixture(t)
	_, err := loadUntouched(t, []string{dir}, Options{Range: recording.Range{To: time.Unix(1000, 0)}})
	if !errors.Is(err, ErrNoTxnInRange) {
		t.Errorf("err = %v, want ErrNoTxnInRange", err)
	}
}

func TestClickHouseKeeperDirectory(t *testing.T) {
	// Its log directory, and the coordination directory above it.
	coordination := t.TempDir()
	logs := filepath.Join(coordination, "log")
	os.Mkdir(logs, 0o755)
	for _, n := range []string{"changelog_1_100000.bin", "changelog_100001_200000.bin.zstd"} {
		os.WriteFile(filepath.Join(logs, n), []byte("keeper"), 0o644)
	}
	for _, dir := range []string{logs, coordination} {
		if !IsDataDir(dir) {
			t.Errorf("%s is not taken for a data directory, to be refused as one", dir)
		}
		if _, err := Load(context.Background(), []string{dir}, Options{}); !errors.Is(err, ErrClickHouseKeeper) {
			t.Errorf("%s: err = %v, want ErrClickHouseKeeper", dir, err)
		}
	}
}

func TestLogsPurgedPastTheSnapshotLeaveAGap(t *testing.T) {
	dir := fixture(t)
	os.Remove(v2(dir, "snapshot.1f"))
	offs := recordOffsets(t, v2(dir, "log.1"))
	// log.1 begins three records later, as if its first ones were gone.
	rewrite(t, v2(dir, "log.1"), func(b []byte) []byte { return append(b[:16:16], b[offs[3]:]...) })
	res, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) != 1 || !strings.Contains(res.Partial[0], "no log holds zxids 0x1 to 0x3") {
		t.Errorf("partial = %q", res.Partial)
	}
}

func TestNotADataDirectory(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/notes.txt", []byte("x"), 0o644)
	if IsDataDir(dir) {
		t.Error("a plain directory taken for a data directory")
	}
	if _, err := Load(context.Background(), []string{dir}, Options{}); !errors.Is(err, ErrNotDataDir) {
		t.Errorf("err = %v, want ErrNotDataDir", err)
	}
}

func TestUnreadableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a directory whatever its mode")
	}
	dir := fixture(t)
	os.Chmod(v2(dir, ""), 0)
	defer os.Chmod(v2(dir, ""), 0o755)
	if _, err := Load(context.Background(), []string{dir}, Options{}); !errors.Is(err, os.ErrPermission) {
		t.Errorf("err = %v, want permission denied", err)
	}
}

func TestLoadStopsWhenItsContextIsDone(t *testing.T) {
	dir := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Load(ctx, []string{dir}, Options{Emit: func(zkwatch.Event) { t.Error("an event was sent after the context was done") }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Load with a done context: %v, %v; want context.Canceled", res, err)
	}
	// A live context reads the same directory whole.
	if _, err := Load(context.Background(), []string{dir}, Options{}); err != nil {
		t.Fatal(err)
	}
}

// The picture a data directory gives is the whole tree's: its sync says
// every lock is known, so that no replay of it reads "partial: walk
// pending".
func TestFixtureSyncSaysEveryLockIsKnown(t *testing.T) {
	res, err := Load(context.Background(), []string{fixture(t)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	synced := 0
	for _, ev := range res.Recording.Events {
		if ev.Kind == zkwatch.EventSynced {
			synced++
			if !ev.Discovery.Complete {
				t.Errorf("a sync at %s says the search for locks is not complete", ev.At)
			}
		}
	}
	if synced != 1 {
		t.Errorf("%d syncs, want 1", synced)
	}
}

// A server with a dataLogDir of its own keeps its logs apart from its
// snapshots: either directory alone says what to give besides it, and
// both together read as one history.
func TestDataLogDirApartFromTheSnapshots(t *testing.T) {
	src := fixture(t)
	data, logs := t.TempDir(), t.TempDir()
	for _, d := range []string{data, logs} {
		if err := os.MkdirAll(filepath.Join(d, "version-2"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"snapshot.0", "snapshot.1f"} {
		if err := os.Rename(v2(src, name), v2(data, name)); err != nil {
			t.Fatal(err)
		}
	}
	// The first log purged: the snapshot is needed.
	if err := os.Rename(v2(src, "log.20"), v2(logs, "log.20")); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]error{data: ErrNoLogs, logs: ErrNoSnapshot} {
		if _, err := Load(context.Background(), []string{dir}, Options{}); !errors.Is(err, want) || !strings.Contains(err.Error(), "dataLogDir") {
			t.Errorf("%s alone: %v", dir, err)
		}
	}
	res, err := loadUntouched(t, []string{data, logs}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Snapshot != "snapshot.1f" || len(res.Partial) > 0 {
		t.Errorf("read from %q, partial %q", res.Snapshot, res.Partial)
	}
	if got := endOf(t, res, "/locks/killed"); got != model.EndExpired {
		t.Errorf("/locks/killed ended %q", got)
	}
}

// A read that would hold more events than it may stops with an error
// that says so, never with the first part of the history as if it were
// all of it.
func TestMaxEventsStopsTheReadAndSaysSo(t *testing.T) {
	dir := fixture(t)
	if _, err := Load(context.Background(), []string{dir}, Options{MaxEvents: 5}); !errors.Is(err, ErrTooManyEvents) {
		t.Errorf("five events at most: %v", err)
	}
	res, err := Load(context.Background(), []string{dir}, Options{MaxEvents: 1000})
	if err != nil || len(res.Recording.Events) == 0 {
		t.Errorf("a thousand at most: %v", err)
	}
}
