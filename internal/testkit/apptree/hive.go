package apptree

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// HiveLock is one lock a Hive query (or LOCK TABLE) asks for.
type HiveLock struct {
	// Namespace is hive.zookeeper.namespace ("hive_zookeeper_namespace").
	Namespace string
	// Object is the locked object's name as HiveLockObject.getName gives
	// it: "db", "db/table" or "db/table/col=val[/col=val]".
	Object string
	// Mode is SHARED, EXCLUSIVE or SEMI_SHARED.
	Mode string
	// Explicit: LOCK TABLE (persistent node, EXPLICIT in the data);
	// otherwise a query's own lock (ephemeral, IMPLICIT).
	Explicit bool
	// QueryID, LockTimeMs, Query and ClientIP make the data.
	QueryID    string
	LockTimeMs int64
	Query      string
	ClientIP   string
}

// Data is the node's data as HiveLockObjectData.toString writes it: the
// first four fields stripped of colons, the client address as it is.
func (l HiveLock) Data() []byte {
	strip := func(s string) string { return strings.ReplaceAll(s, ":", "") }
	mode := "IMPLICIT"
	if l.Explicit {
		mode = "EXPLICIT"
	}
	return fmt.Appendf(nil, "%s:%s:%s:%s:%s", strip(l.QueryID), strip(strconv.FormatInt(l.LockTimeMs, 10)), mode, strip(strings.TrimSpace(l.Query)), l.ClientIP)
}

// LockHive takes a lock as ZooKeeperHiveLockManager.lockPrimitive does:
// every level of the object's path persistent with no data, then
// <object>/LOCK-<MODE>- (persistent sequential for LOCK TABLE, ephemeral
// sequential otherwise), then a listing of the object's children without a
// watch; if a lower node conflicts it deletes its own node and reports
// false, as Hive does before it sleeps and tries again.
func LockHive(t testing.TB, c *zk.Conn, l HiveLock) (node string, held bool) {
	t.Helper()
	object := "/" + l.Namespace + "/" + l.Object
	MkdirAll(t, c, object)
	flags := int32(zk.FlagEphemeral | zk.FlagSequence)
	if l.Explicit {
		flags = zk.FlagSequence
	}
	prefix := "LOCK-" + l.Mode + "-"
	p := Create(t, c, object+"/"+prefix, l.Data(), flags)
	seq, _ := strconv.Atoi(p[len(p)-10:])
	children, _, err := c.Children(object)
	if err != nil {
		t.Fatalf("apptree: hive lists %s: %v", object, err)
	}
	for _, child := range children {
		childSeq := seq
		if rest, ok := strings.CutPrefix(child, "LOCK-EXCLUSIVE-"); ok {
			childSeq, _ = strconv.Atoi(rest)
		}
		if rest, ok := strings.CutPrefix(child, "LOCK-SHARED-"); ok && l.Mode == "EXCLUSIVE" {
			childSeq, _ = strconv.Atoi(rest)
		}
		if childSeq < seq {
			if err := c.Delete(p, -1); err != nil {
				t.Fatalf("apptree: hive gives up %s: %v", p, err)
			}
			return p, false
		}
	}
	return p, true
}

// LockHiveQuery takes a query's locks as DummyTxnManager asks for them:
// mode on the object itself and SHARED on every object above it (the
// database, the table, each partial partition), in name order, all or
// nothing. It returns the nodes it holds, or nil after releasing them
// when one was refused.
func LockHiveQuery(t testing.TB, c *zk.Conn, l HiveLock) []string {
	t.Helper()
	parts := strings.Split(l.Object, "/")
	var held []string
	for i := range parts {
		step := l
		step.Object = strings.Join(parts[:i+1], "/")
		if i < len(parts)-1 {
			step.Mode = "SHARED"
		}
		p, ok := LockHive(t, c, step)
		if !ok {
			for _, h := range held {
				if err := c.Delete(h, -1); err != nil {
					t.Fatalf("apptree: hive releases %s: %v", h, err)
				}
			}
			return nil
		}
		held = append(held, p)
	}
	return held
}
