package apptree

import (
	"encoding/binary"
	"sort"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/encoding/protowire"
)

// HBaseTableLock is one HBase 1.x table lock request.
type HBaseTableLock struct {
	// Parent is zookeeper.znode.parent ("/hbase").
	Parent string
	// Table is the table's name ("t1", or "ns:t1").
	Table string
	// Write: a write lock (write-); otherwise a read lock (read-).
	Write bool
	// Identifier is the process's ZooKeeper identifier ("master:16000").
	Identifier string
	// Host, Port and StartCode name the owner; ThreadID, Purpose and
	// CreateMs complete the TableLock message.
	Host      string
	Port      uint64
	StartCode uint64
	ThreadID  uint64
	Purpose   string
	CreateMs  uint64
}

// Data is ZKMetadata (0xFF, length, identifier, 8 salt bytes), "PBUF"
// and TableLock, as RecoverableZooKeeper and TableLockManager write it.
func (l HBaseTableLock) Data() []byte {
	meta := []byte{0xff}
	meta = binary.BigEndian.AppendUint32(meta, uint32(len(l.Identifier)+8))
	meta = append(append(meta, l.Identifier...), 9, 8, 7, 6, 5, 4, 3, 2)
	ns, qual := "default", l.Table
	if a, b, ok := strings.Cut(l.Table, ":"); ok {
		ns, qual = a, b
	}
	var table, owner, msg []byte
	table = protowire.AppendTag(table, 1, protowire.BytesType)
	table = protowire.AppendBytes(table, []byte(ns))
	table = protowire.AppendTag(table, 2, protowire.BytesType)
	table = protowire.AppendBytes(table, []byte(qual))
	owner = protowire.AppendTag(owner, 1, protowire.BytesType)
	owner = protowire.AppendBytes(owner, []byte(l.Host))
	owner = protowire.AppendTag(owner, 2, protowire.VarintType)
	owner = protowire.AppendVarint(owner, l.Port)
	owner = protowire.AppendTag(owner, 3, protowire.VarintType)
	owner = protowire.AppendVarint(owner, l.StartCode)
	msg = protowire.AppendTag(msg, 1, protowire.BytesType)
	msg = protowire.AppendBytes(msg, table)
	msg = protowire.AppendTag(msg, 2, protowire.BytesType)
	msg = protowire.AppendBytes(msg, owner)
	msg = protowire.AppendTag(msg, 3, protowire.VarintType)
	msg = protowire.AppendVarint(msg, l.ThreadID)
	msg = protowire.AppendTag(msg, 4, protowire.VarintType)
	msg = protowire.AppendVarint(msg, protowire.EncodeBool(!l.Write))
	msg = protowire.AppendTag(msg, 5, protowire.BytesType)
	msg = protowire.AppendBytes(msg, []byte(l.Purpose))
	msg = protowire.AppendTag(msg, 6, protowire.VarintType)
	msg = protowire.AppendVarint(msg, l.CreateMs)
	return append(append(meta, "PBUF"...), msg...)
}

// LockHBaseTable takes a table lock as ZKInterProcessLockBase.tryAcquire
// does, without blocking: it creates <parent>/table-lock/<table>/read- or
// write- followed by the identifier (ephemeral sequential, the parents
// created first), lists the children without a watch, and sets an exists
// watch on the node it must wait for: for a writer the child just below
// it, for a reader the highest write below it (ordered by their last ten
// characters). It returns its node's name and the one it watches ("" when
// it holds).
func LockHBaseTable(t testing.TB, c *zk.Conn, l HBaseTableLock) (node, watches string) {
	t.Helper()
	dir := l.Parent + "/table-lock/" + l.Table
	MkdirAll(t, c, dir)
	prefix := "read-"
	if l.Write {
		prefix = "write-"
	}
	node = Base(Create(t, c, dir+"/"+prefix+l.Identifier, l.Data(), zk.FlagEphemeral|zk.FlagSequence))
	children, _, err := c.Children(dir)
	if err != nil {
		t.Fatalf("apptree: hbase lists %s: %v", dir, err)
	}
	seq := func(s string) string { return s[len(s)-10:] }
	sort.Slice(children, func(i, j int) bool { return seq(children[i]) < seq(children[j]) })
	for _, child := range children {
		if seq(child) >= seq(node) {
			break
		}
		if l.Write || strings.HasPrefix(child, "write-") {
			watches = child
		}
	}
	if watches != "" {
		WatchData(t, c, dir+"/"+watches)
	}
	return node, watches
}
