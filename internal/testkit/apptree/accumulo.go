package apptree

import (
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// Accumulo builds an Accumulo 2.1 instance under root, as its ServiceLock
// and FATE's DistributedReadWriteLock write it: two managers queue on
// managers/lock (zlock#<uuid># nodes), the second watching the first; a
// tablet server holds its lock; a FATE write and read lock table 2a
// (persistent flock# nodes). It returns the managers' sessions and the
// first's node.
func Accumulo(t testing.TB, zks *zktest.Server, root string) (mgr1, mgr2 *zk.Conn, mgr1Node string) {
	t.Helper()
	admin := zks.Connect(t)
	for _, dir := range []string{root + "/managers/lock", root + "/tservers/ts1:9997", root + "/table_locks/2a", root + "/fate"} {
		MkdirAll(t, admin, dir)
	}
	mgr1, mgr2 = zks.Connect(t), zks.Connect(t)
	p1 := Create(t, mgr1, root+"/managers/lock/zlock#0b5e2f5a-7d21-4c9a-8a2a-c9aa44755fbe#", []byte("mgr1:9999"), zk.FlagEphemeral|zk.FlagSequence)
	Create(t, mgr2, root+"/managers/lock/zlock#7d214c9a-0b5e-4f5a-8a2a-44755fbec9aa#", []byte("mgr2:9999"), zk.FlagEphemeral|zk.FlagSequence)
	WatchData(t, mgr2, p1)
	ts := zks.Connect(t)
	Create(t, ts, root+"/tservers/ts1:9997/zlock#c9aa4475-5fbe-4b5e-8d21-0b5e2f5a7d21#", []byte("TSERV_CLIENT=ts1:9997"), zk.FlagEphemeral|zk.FlagSequence)
	Create(t, admin, root+"/table_locks/2a/flock#", []byte("WRITE:000000000000abcd"), zk.FlagSequence)
	Create(t, admin, root+"/table_locks/2a/flock#", []byte("READ:000000000000abce"), zk.FlagSequence)
	return mgr1, mgr2, Base(p1)
}
