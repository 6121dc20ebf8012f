package txnlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/adler32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

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

// create makes p, ephemeral when owner is not 0.
func (w *txnWriter) create(owner int64, p string) {
	w.record(max(owner, 1), jute.OpCreate, func(r *jute.Writer) {
		r.String(p)
		r.Buffer([]byte("x"))
		r.Int(1)
		r.Int(jute.PermAll)
		r.String("world")
		r.String("anyone")
		r.Bool(owner != 0)
		r.Int(-1)
	})
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
	snap.Int(0)
	snap.Int(0)
	snap.String("")
	snap.Buffer(nil)
	snap.Long(-1)
	for range 4 {
		snap.Long(0)
	}
	for range 3 {
		snap.Int(0)
	}
	snap.Long(0)
	snap.Long(0)
	snap.String("/")
	snap.Long(int64(adler32.Checksum(snap.Bytes())))
	snap.String("/")
	if err := os.WriteFile(filepath.Join(v2, "snapshot.0"), snap.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

// A kazoo semaphore's waiter holds a node named like a lock in the
// semaphore's sibling queue: it is the semaphore's waiter, never a lock
// of its own, whether its node was there when the history begins or made
// after.
func TestSemaphoreQueueNodeIsNoLock(t *testing.T) {
	w := newTxnWriter()
	for s := range int64(3) {
		w.session(0x100 + s)
	}
	w.create(0, "/kz")
	w.create(0, "/kz/sem")
	w.create(0, "/kz/sem-__lock__")
	w.create(0x100, "/kz/sem/1bbe7509aaaabbbbccccddddeeeeffff")
	w.create(0x101, "/kz/sem-__lock__/0a3bb9eba7bb48afb4e619011cd1f6f7__lock__0000000001")
	dir := w.dir(t)
	// From the start, the nodes are made as the events go; from after the
	// last transaction, they are the picture the events begin with.
	for _, from := range []time.Time{{}, time.UnixMilli(1_700_000_000_000 + w.zxid + 1)} {
		res, err := Load(context.Background(), []string{dir}, Options{Under: "/kz", Range: recording.Range{From: from}})
		if err != nil {
			t.Fatal(err)
		}
		locks := map[string]bool{}
		for _, ev := range res.Recording.Events {
			if ev.Kind == zkwatch.EventLock {
				locks[ev.Path] = true
			}
		}
		if !locks["/kz/sem"] {
			t.Errorf("from %v: the semaphore is not among the locks: %v", from, locks)
		}
		for p := range locks {
			if strings.HasPrefix(p, "/kz/sem-__lock__") {
				t.Errorf("from %v: %s is told as a lock of its own (locks %v)", from, p, locks)
			}
		}
	}
}
