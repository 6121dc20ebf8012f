package txnlog

import (
	"context"
	"encoding/binary"
	"hash/adler32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// fixture is a copy of testdata/zk38: the data directory of a real
// ZooKeeper 3.8 after an incident (see TestIntegrationTxnLogTellsEveryEndExactly):
// snapshot.0, snapshot.1f, log.1 and log.20, the logs without their
// preallocated zeros.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-a", "testdata/zk38/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	return dst
}

// v2 is a path in a fixture's version-2/.
func v2(dir, name string) string { return filepath.Join(dir, "version-2", name) }

// recordOffsets are where each record of a log begins, and its end.
func recordOffsets(t *testing.T, path string) []int64 {
	t.Helper()
	l, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	offs := []int64{l.off}
	for {
		if _, err := l.next(); err == io.EOF {
			return offs
		} else if err != nil {
			t.Fatal(err)
		}
		offs = append(offs, l.off)
	}
}

// rewrite changes a log's bytes by edit.
func rewrite(t *testing.T, path string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reseal sets the checksum of the record at off to match its bytes.
func reseal(b []byte, off int64) {
	n := binary.BigEndian.Uint32(b[off+8:])
	sum := adler32.Checksum(b[off+12 : off+12+int64(n)])
	binary.BigEndian.PutUint64(b[off:], uint64(sum))
}

// listing is each file's name, size and modification time under dir: a
// read must leave it as it was.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			out[p] = fi.Mode().String() + fi.ModTime().String() + string(rune(fi.Size()))
		}
		return nil
	})
	return out
}

// loadUntouched loads paths and fails the test if the read changed any
// file in them.
func loadUntouched(t *testing.T, paths []string, opt Options) (*Result, error) {
	t.Helper()
	before := map[string]map[string]string{}
	for _, p := range paths {
		before[p] = listing(t, p)
	}
	res, err := Load(context.Background(), paths, opt)
	for _, p := range paths {
		after := listing(t, p)
		if len(after) != len(before[p]) {
			t.Errorf("%s: files changed by the read: %d before, %d after", p, len(before[p]), len(after))
		}
		for k, v := range before[p] {
			if after[k] != v {
				t.Errorf("%s changed by the read", k)
			}
		}
	}
	return res, err
}
