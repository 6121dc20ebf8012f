package txnlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// writeLog writes a data directory whose one log holds about n
// transactions after an empty snapshot.0: 32 sessions creating Curator
// contenders in locks and deleting them, as the benchmark's clients do.
func writeLog(tb testing.TB, n, locks int) string {
	root := tb.TempDir()
	dir := filepath.Join(root, "version-2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	var head jute.Writer
	head.Int(jute.LogMagic)
	head.Int(jute.FileVersion)
	head.Long(0)
	out.Write(head.Bytes())
	zxid := int64(0)
	record := func(session int64, typ int32, body func(*jute.Writer)) {
		zxid++
		var w jute.Writer
		w.Long(session)
		w.Int(int32(zxid))
		w.Long(zxid)
		w.Long(1_700_000_000_000 + zxid)
		w.Int(typ)
		body(&w)
		var frame [12]byte
		binary.BigEndian.PutUint64(frame[:8], uint64(adler32.Checksum(w.Bytes())))
		binary.BigEndian.PutUint32(frame[8:], uint32(len(w.Bytes())))
		out.Write(frame[:])
		out.Write(w.Bytes())
		out.WriteByte('B')
	}
	create := func(p string, ephemeral bool) func(*jute.Writer) {
		return func(w *jute.Writer) {
			w.String(p)
			w.Buffer(bytes.Repeat([]byte{'x'}, 100))
			w.Int(1)
			w.Int(jute.PermAll)
			w.String("world")
			w.String("anyone")
			w.Bool(ephemeral)
			w.Int(-1)
		}
	}
	for s := range int64(32) {
		record(0x100+s, jute.OpCreateSession, func(w *jute.Writer) { w.Int(10000) })
	}
	record(0x100, jute.OpCreate, create("/locks", false))
	for i := range locks {
		record(0x100, jute.OpCreate, create(fmt.Sprintf("/locks/l%05d", i), false))
	}
	for i := 0; int(zxid) < n; i++ {
		p := fmt.Sprintf("/locks/l%05d/_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-%010d", i%locks, i/locks)
		s := 0x100 + int64(i%32)
		record(s, jute.OpCreate2, create(p, true))
		record(s, jute.OpDelete, func(w *jute.Writer) { w.String(p) })
	}
	if err := os.WriteFile(filepath.Join(dir, "log.1"), out.Bytes(), 0o644); err != nil {
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
	if err := os.WriteFile(filepath.Join(dir, "snapshot.0"), snap.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

func TestWrittenLogTellsEveryHold(t *testing.T) {
	dir := writeLog(t, 20000, 100)
	res, err := Load(context.Background(), []string{dir}, Options{Lock: "/locks/l00042"})
	if err != nil {
		t.Fatal(err)
	}
	st := model.TellStory(res.Recording.Events, "/locks/l00042", time.Time{}, time.Time{})
	if len(res.Partial) > 0 || len(st.Holds) < 90 {
		t.Errorf("partial %v, %d holds", res.Partial, len(st.Holds))
	}
	for _, h := range st.Holds {
		if h.End != model.EndReleased && h.End != model.EndOngoing {
			t.Errorf("hold %+v", h)
		}
	}
}

func BenchmarkLoadOneLock(b *testing.B) {
	dir := writeLog(b, 500000, 1000)
	b.ResetTimer()
	for range b.N {
		res, err := Load(context.Background(), []string{dir}, Options{Lock: "/locks/l00042"})
		if err != nil {
			b.Fatal(err)
		}
		model.TellStory(res.Recording.Events, "/locks/l00042", time.Time{}, time.Time{})
	}
}
