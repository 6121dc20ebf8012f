package apptree

import (
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// HBaseMasterData is a master's registration as HBase writes /master and
// backup-masters' nodes: ZKMetadata, PBUF, then Master{ServerName{host,
// 16000, start}, 0, 16010} in protobuf.
func HBaseMasterData(host string, start uint64) []byte {
	id := "master:16000"
	meta := append([]byte{0xff, 0, 0, 0, byte(len(id) + 8)}, id...)
	meta = append(meta, 1, 2, 3, 4, 5, 6, 7, 8)
	sn := append([]byte{0x0a, byte(len(host))}, host...)
	sn = append(sn, 0x10, 0x80, 0x7d, 0x18)
	for v := start; ; v >>= 7 {
		if v < 0x80 {
			sn = append(sn, byte(v))
			break
		}
		sn = append(sn, byte(v)|0x80)
	}
	master := append([]byte{0x0a, byte(len(sn))}, sn...)
	master = append(master, 0x10, 0x00, 0x18, 0x8a, 0x7d)
	return append(append(meta, "PBUF"...), master...)
}

// HBaseMasters builds HBase's masters under parent
// (zookeeper.znode.parent), as ActiveMasterManager does: both masters
// (hmaster1 and hmaster2.example.com) register as backups; the first wins
// /master and, unless keepBackup, deletes its own backup registration;
// the second watches /master with getData. A region server registers
// under rs. It returns the two masters' sessions.
func HBaseMasters(t testing.TB, zks *zktest.Server, parent string, keepBackup bool) (active, backup *zk.Conn) {
	t.Helper()
	admin := zks.Connect(t)
	MkdirAll(t, admin, parent+"/backup-masters")
	MkdirAll(t, admin, parent+"/rs")
	active, backup = zks.Connect(t), zks.Connect(t)
	m1, m2 := "hmaster1.example.com", "hmaster2.example.com"
	Create(t, active, parent+"/backup-masters/"+m1+",16000,1700000000000", HBaseMasterData(m1, 1700000000000), zk.FlagEphemeral)
	Create(t, backup, parent+"/backup-masters/"+m2+",16000,1700000000123", HBaseMasterData(m2, 1700000000123), zk.FlagEphemeral)
	Create(t, active, parent+"/master", HBaseMasterData(m1, 1700000000000), zk.FlagEphemeral)
	if !keepBackup {
		if err := active.Delete(parent+"/backup-masters/"+m1+",16000,1700000000000", -1); err != nil {
			t.Fatalf("apptree: hbase deletes its backup registration: %v", err)
		}
	}
	if _, _, _, err := backup.GetW(parent + "/master"); err != nil {
		t.Fatalf("apptree: hbase backup watches /master: %v", err)
	}
	Create(t, active, parent+"/rs/rs1.example.com,16020,1700000000456", []byte{}, zk.FlagEphemeral)
	return active, backup
}
