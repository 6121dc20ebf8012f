package txnlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/adler32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/jute"
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

// txnWriter writes a data directory of one log after an empty snapshot.0.
type txnWriter struct {
	out  bytes.Buffer
	zxid int64
}

func newTxnWriter() *txnWriter {
	w := &txnWriter{}
	var head jute.Writer
	head.Int(jute.LogMagic)
	head.Int(jute.FileVersion)
	head.Long(0)
	w.out.Write(head.Bytes())
	return w
}

func (w *txnWriter) record(session int64, typ int32, body func(*jute.Writer)) {
	w.zxid++
	var r jute.Writer
	r.Long(session)
	r.Int(int32(w.zxid))
	r.Long(w.zxid)
	r.Long(1_700_000_000_000 + w.zxid)
	r.Int(typ)
	body(&r)
	var frame [12]byte
	binary.BigEndian.PutUint64(frame[:8], uint64(adler32.Checksum(r.Bytes())))
	binary.BigEndian.PutUint32(frame[8:], uint32(len(r.Bytes())))
	w.out.Write(frame[:])
	w.out.Write(r.Bytes())
	w.out.WriteByte('B')
}

func (w *txnWriter) session(id int64) {
	w.record(id, jute.OpCreateSession, func(r *jute.Writer) { r.Int(10000) })
}

// create makes p by a create of type typ (OpCreate, OpCreate2) from
// session, with 100 bytes of data, open to anyone.
func (w *txnWriter) create(session int64, typ int32, p string, ephemeral bool) {
	w.record(session, typ, func(r *jute.Writer) {
		r.String(p)
		r.Buffer(bytes.Repeat([]byte{'x'}, 100))
		r.Int(1)
		r.Int(jute.PermAll)
		r.String("world")
		r.String("anyone")
		r.Bool(ephemeral)
		r.Int(-1)
	})
}

// delete deletes p, from session.
func (w *txnWriter) delete(session int64, p string) {
	w.record(session, jute.OpDelete, func(r *jute.Writer) { r.String(p) })
}

// dir writes the data directory and returns it.
func (w *txnWriter) dir(tb testing.TB) string {
	root := tb.TempDir()
	v2 := filepath.Join(root, "version-2")
	if err := os.MkdirAll(v2, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v2, "log.1"), w.out.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	var snap jute.Writer
	snap.Int(jute.SnapMagic)
	snap.Int(jute.FileVersion)
	snap.Long(0)
	snap.Int(0) // no session
	snap.Int(0) // no ACL
	snapNode(&snap, "", nil, -1, 0)
	sealSnapshot(&snap)
	if err := os.WriteFile(filepath.Join(v2, "snapshot.0"), snap.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

// snapNode writes one node of a snapshot, as ZooKeeper's DataTree
// serializes it: its path, data, ACL's number in the snapshot's cache, and
// a stat whose zxids and times are all zxid.
func snapNode(w *jute.Writer, path string, data []byte, acl, zxid int64) {
	w.String(path)
	w.Buffer(data)
	w.Long(acl)
	for range 4 {
		w.Long(zxid) // czxid, mzxid, ctime, mtime
	}
	for range 3 {
		w.Int(0) // version, cversion, aversion
	}
	w.Long(0) // ephemeralOwner
	w.Long(zxid)
}

// sealSnapshot ends a snapshot's tree and writes its checksum, and the
// path ZooKeeper writes after it.
func sealSnapshot(w *jute.Writer) {
	w.String("/")
	w.Long(int64(adler32.Checksum(w.Bytes())))
	w.String("/")
}
