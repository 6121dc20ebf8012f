package lockcore

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

func TestDecodeHiveLockData(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		ok         bool
		want       HiveLockData
	}{
		{"query", "hive_20231114221320_x:1700000000000:IMPLICIT:select 1:10.0.0.5", true,
			HiveLockData{QueryID: "hive_20231114221320_x", LockTime: time.UnixMilli(1700000000000), Query: "select 1", Client: "10.0.0.5"}},
		{"LOCK TABLE from IPv6", "q:1700000000000:EXPLICIT:LOCK TABLE t SHARED:fe80::1", true,
			HiveLockData{QueryID: "q", LockTime: time.UnixMilli(1700000000000), Explicit: true, Query: "LOCK TABLE t SHARED", Client: "fe80::1"}},
		{"bad time", "q:soon:IMPLICIT:select 1:h", true, HiveLockData{QueryID: "q", Query: "select 1", Client: "h"}},
		{"no mode", "q:1:SOMETIMES:select 1:h", false, HiveLockData{}},
		{"too few fields", "q:1:IMPLICIT", false, HiveLockData{}},
		{"empty", "", false, HiveLockData{}},
	} {
		got, ok := DecodeHiveLockData([]byte(tc.data))
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestHiveCoHolders: Hive's living nodes hold together; one a lower node
// conflicts with is about to be deleted by its own client, and is no
// waiter to wake.
func TestHiveCoHolders(t *testing.T) {
	node := func(name string, owner int64, data string) Node {
		return Node{Name: name, Data: []byte(data), Stat: zk.Stat{EphemeralOwner: owner, DataLength: int32(len(data))}}
	}
	l := Analyze(Tree{Path: "/hive_zookeeper_namespace/db/t", Children: []Node{
		node("LOCK-SHARED-0000000001", 1, "a:1:IMPLICIT:select:h1"),
		node("LOCK-SHARED-0000000002", 1, "b:1:IMPLICIT:select:h1"),
		node("LOCK-SEMI_SHARED-0000000003", 2, "c:1:IMPLICIT:insert:h2"),
		node("LOCK-EXCLUSIVE-0000000004", 2, "d:1:IMPLICIT:insert overwrite:h2"),
		node("ds=1", 0, ""),
	}}, NewWatchTable(nil), Options{})
	roles := map[string]Role{}
	for _, p := range l.Participants {
		roles[p.Node] = p.Role
	}
	if l.Recipe != RecipeHive || l.Holders() != 3 || roles["LOCK-EXCLUSIVE-0000000004"] != RoleWaiter {
		t.Fatalf("recipe %s, holders %d, roles %v", l.Recipe, l.Holders(), roles)
	}
	if len(l.Anomalies) != 0 {
		t.Errorf("anomalies %+v: one session's several locks and a partition beside them are Hive's design", l.Anomalies)
	}
	if l.App == nil || l.App.Holder != "3 co-holders (2 SHARED, 1 SEMI_SHARED)" || l.App.What != "table lock on db@t" {
		t.Errorf("app %+v", l.App)
	}
	if got := NestedDirs([]string{"LOCK-SHARED-0000000001", "ds=1"}); len(got) != 1 || got[0] != "ds=1" {
		t.Errorf("nested dirs %v", got)
	}
	if got := NestedDirs([]string{"_c_x-lock-0000000001", "sub"}); got != nil {
		t.Errorf("nested dirs of a mutex %v", got)
	}
}
