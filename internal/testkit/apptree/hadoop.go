package apptree

import (
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// HDFSActiveNodeInfo is HDFS's ActiveNodeInfo{ns, nnID, host, 8020, 8019}
// in protobuf, as the ZKFC's ActiveStandbyElector writes it in its lock
// and breadcrumb.
func HDFSActiveNodeInfo(ns, nnID, host string) []byte {
	field := func(num byte, s string) []byte { return append([]byte{num<<3 | 2, byte(len(s))}, s...) }
	b := append(field(1, ns), field(2, nnID)...)
	b = append(b, field(3, host)...)
	return append(b, 0x20, 0xd4, 0x3e, 0x28, 0xd3, 0x3e)
}

// HadoopHA builds an HDFS HA nameservice under parent
// (ha.zookeeper.parent-znode): the active ZKFC holds
// ActiveStandbyElectorLock with its NameNode's data (activeNN, on
// <activeNN>.example.com), ActiveBreadCrumb holds crumbNN's, and the
// standby watches the lock. It returns the two ZKFCs' sessions.
func HadoopHA(t testing.TB, zks *zktest.Server, parent, ns, activeNN, crumbNN string) (active, standby *zk.Conn) {
	t.Helper()
	MkdirAll(t, zks.Connect(t), parent+"/"+ns) // hdfs zkfc -formatZK
	active, standby = zks.Connect(t), zks.Connect(t)
	Create(t, active, parent+"/"+ns+"/ActiveStandbyElectorLock", HDFSActiveNodeInfo(ns, activeNN, activeNN+".example.com"), zk.FlagEphemeral)
	Create(t, active, parent+"/"+ns+"/ActiveBreadCrumb", HDFSActiveNodeInfo(ns, crumbNN, crumbNN+".example.com"), 0)
	WatchData(t, standby, parent+"/"+ns+"/ActiveStandbyElectorLock")
	return active, standby
}
