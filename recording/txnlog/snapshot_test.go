package txnlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

func TestReadSnapshotOfARealServer(t *testing.T) {
	dir := fixture(t)
	info, err := ReadSnapshot(v2(dir, "snapshot.1f"))
	if err != nil {
		t.Fatal(err)
	}
	// The root, /zookeeper and its children, /locks and the incident's
	// locks and contenders.
	if info.Zxid != 0x1f || info.Nodes < 10 || info.Sessions == 0 {
		t.Errorf("snapshot.1f holds %+v", info)
	}
	rewrite(t, v2(dir, "snapshot.1f"), func(b []byte) []byte { b[len(b)/2] ^= 0x5a; return b })
	if _, err := ReadSnapshot(v2(dir, "snapshot.1f")); !errors.Is(err, ErrSnapshot) && !errors.Is(err, jute.ErrLength) {
		t.Errorf("a spoilt snapshot read: %v", err)
	}
}

// writeSnapshot writes a snapshot of n znodes under /big, ten thousand a
// directory, each with a little data, as ZooKeeper lays one out.
func writeSnapshot(tb testing.TB, n int) string {
	var w jute.Writer
	w.Int(jute.SnapMagic)
	w.Int(jute.FileVersion)
	w.Long(0)
	w.Int(1) // one session
	w.Long(0x100)
	w.Int(30000)
	w.Int(1) // one ACL
	w.Long(1)
	w.Int(1)
	w.Int(jute.PermAll)
	w.String("world")
	w.String("anyone")
	node := func(p string, data []byte) { snapNode(&w, p, data, 1, 7) }
	node("", nil)
	node("/big", nil)
	data := []byte(`{"version":1,"partitions":{"0":[1,2,3]}}`)
	for d := 0; d*10000 < n; d++ {
		node(fmt.Sprintf("/big/d%d", d), nil)
		for i := d * 10000; i < min(n, (d+1)*10000); i++ {
			node(fmt.Sprintf("/big/d%d/topic-%07d", d, i), data)
		}
	}
	sealSnapshot(&w)
	path := filepath.Join(tb.TempDir(), "snapshot.7")
	if err := os.WriteFile(path, w.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func TestReadSnapshotWritten(t *testing.T) {
	info, err := ReadSnapshot(writeSnapshot(t, 25000))
	if err != nil {
		t.Fatal(err)
	}
	if info.Nodes != 25000+2+3 || info.Sessions != 1 {
		t.Errorf("read %+v", info)
	}
}

func BenchmarkReadSnapshot(b *testing.B) {
	path := writeSnapshot(b, 200000)
	b.ResetTimer()
	for range b.N {
		if _, err := ReadSnapshot(path); err != nil {
			b.Fatal(err)
		}
	}
}
