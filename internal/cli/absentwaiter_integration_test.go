package cli

import (
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/model/check"
)

// TestIntegrationCheckJudgesAbsentWaiters: a waiter whose session never
// sets a watch is critical unwatched-waiter for check, both over a walk
// (whose table, read before the walk, cannot judge it alone) and for the
// lock named: the table read again after the walk, or after the lock's
// read, judges a waiter that was there when the one before was read.
func TestIntegrationCheckJudgesAbsentWaiters(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	holder := zks.Connect(t)
	if _, err := holder.Create(root+"/stuck", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if err := zk.NewLock(holder, root+"/stuck", zk.WorldACL(zk.PermAll)).Lock(); err != nil {
		t.Fatal(err)
	}
	lost := zks.Connect(t)
	if _, err := lost.CreateProtectedEphemeralSequential(root+"/stuck/lock-", nil, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--root", root}, {root + "/stuck"}} {
		out, errOut, code := run(t, append([]string{"check", "--server", zks.Addr()}, args...)...)
		if code != int(check.Critical) || !strings.Contains(out, "unwatched-waiter") {
			t.Fatalf("check %v: exit %d, want CRITICAL for the waiter that watches nothing:\n%s%s", args, code, out, errOut)
		}
	}
}
