package lockcore

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/encoding/protowire"
)

// hbaseTableLockData is ZKMetadata + PBUF + TableLock, as HBase 1.x's
// TableLockManager writes it.
func hbaseTableLockData(host string, start, thread uint64, shared bool, purpose string) []byte {
	id := "master:16000"
	meta := []byte{0xff}
	meta = binary.BigEndian.AppendUint32(meta, uint32(len(id)+8))
	meta = append(append(meta, id...), 1, 2, 3, 4, 5, 6, 7, 8)
	var table, owner, msg []byte
	table = protowire.AppendTag(table, 1, protowire.BytesType)
	table = protowire.AppendBytes(table, []byte("default"))
	table = protowire.AppendTag(table, 2, protowire.BytesType)
	table = protowire.AppendBytes(table, []byte("t1"))
	owner = protowire.AppendTag(owner, 1, protowire.BytesType)
	owner = protowire.AppendBytes(owner, []byte(host))
	owner = protowire.AppendTag(owner, 2, protowire.VarintType)
	owner = protowire.AppendVarint(owner, 16000)
	owner = protowire.AppendTag(owner, 3, protowire.VarintType)
	owner = protowire.AppendVarint(owner, start)
	msg = protowire.AppendTag(msg, 1, protowire.BytesType)
	msg = protowire.AppendBytes(msg, table)
	msg = protowire.AppendTag(msg, 2, protowire.BytesType)
	msg = protowire.AppendBytes(msg, owner)
	msg = protowire.AppendTag(msg, 3, protowire.VarintType)
	msg = protowire.AppendVarint(msg, thread)
	msg = protowire.AppendTag(msg, 4, protowire.VarintType)
	msg = protowire.AppendVarint(msg, protowire.EncodeBool(shared))
	msg = protowire.AppendTag(msg, 5, protowire.BytesType)
	msg = protowire.AppendBytes(msg, []byte(purpose))
	msg = protowire.AppendTag(msg, 6, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 1700000000000)
	return append(append(meta, "PBUF"...), msg...)
}

func TestDecodeHBaseTableLock(t *testing.T) {
	l, ok := DecodeHBaseTableLock(hbaseTableLockData("hmaster1.example.com", 1700000000000, 42, false, "disableTable"))
	want := HBaseTableLock{Namespace: "default", Qualifier: "t1", Owner: HBaseServerName{"hmaster1.example.com", 16000, 1700000000000},
		ThreadID: 42, Purpose: "disableTable", Created: time.UnixMilli(1700000000000)}
	if !ok || l != want {
		t.Fatalf("%+v %v, want %+v", l, ok, want)
	}
	if got := l.String(); got != "hmaster1.example.com,16000,1700000000000 (thread 42) for disableTable, since 2023-11-14T22:13:20Z" {
		t.Errorf("String %q", got)
	}
	for _, bad := range [][]byte{nil, []byte("PBUF"), []byte("PBUF\x0a\x05ab"), hbaseMasterBytes()} {
		if _, ok := DecodeHBaseTableLock(bad); ok {
			t.Errorf("%q decoded", bad)
		}
	}
}

func hbaseMasterBytes() []byte { return []byte("\xff\x00\x00\x00\x00PBUF\x10\x01") }

// TestHBaseTableLockQueue: a writer watches the node just below it, a
// reader the highest write below it; the identifier's digits before the
// sequence are no part of it.
func TestHBaseTableLockQueue(t *testing.T) {
	node := func(name string, owner int64, shared bool) Node {
		d := hbaseTableLockData("hmaster1.example.com", 1700000000000, uint64(owner), shared, "p")
		return Node{Name: name, Data: d, Stat: zk.Stat{EphemeralOwner: owner, DataLength: int32(len(d))}}
	}
	l := Analyze(Tree{Path: "/hbase/table-lock/t1", Children: []Node{
		node("read-master:160000000000001", 1, true),
		node("write-master:160000000000002", 2, false),
		node("read-master:160000000000003", 3, true),
		node("write-master:160000000000004", 4, false),
		node("read-master:160000000000005", 5, true),
	}}, nil, Options{})
	got := layout(l)
	want := "read-master:160000000000001:h:- write-master:160000000000002:w:read-master:160000000000001 " +
		"read-master:160000000000003:w:write-master:160000000000002 write-master:160000000000004:w:read-master:160000000000003 " +
		"read-master:160000000000005:w:write-master:160000000000004"
	if l.Recipe != RecipeHBaseTableLock || got != want || len(l.Assumed) != 0 {
		t.Fatalf("recipe %s assumed %q\n%s\nwant\n%s", l.Recipe, l.Assumed, got, want)
	}
	if l.Participants[1].Mode != ModeWrite || l.Participants[0].Identity != "hmaster1.example.com,16000,1700000000000 (thread 1) for p, since 2023-11-14T22:13:20Z" {
		t.Errorf("participants %+v", l.Participants[:2])
	}
	if l.App == nil || l.App.What != "table lock on t1" || l.App.HolderSession != 1 {
		t.Errorf("app %+v", l.App)
	}
}
