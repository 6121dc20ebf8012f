package lockcore

import (
	"fmt"
	"strings"
)

// HBase 1.x locks a table for DDL and region operations with
// ZKInterProcessReadWriteLock under <zookeeper.znode.parent>/table-lock/
// <table> (TableLockManager; removed in 2.0): read- or write- then the
// process identifier, as RecoverableZooKeeper.createSequential inserts it
// ("master:16000"), then the ten-digit sequence, ephemeral sequential.
// Sorting takes the last ten characters as the sequence. A writer watches
// the child just below it, a reader the highest write below it (exists, so
// the servers' watch table shows both). The data is ZKMetadata, "PBUF" and
// TableLock {1 table_name {1 namespace, 2 qualifier}, 2 lock_owner
// ServerName, 3 thread_id, 4 is_shared, 5 purpose, 6 create_time}.
const RecipeHBaseTableLock Recipe = "hbase-table-lock"

// analyzeHBaseTableLock names the table and the holders in HBase's terms.
func analyzeHBaseTableLock(l *Lock) {
	table := BaseName(l.Path)
	a := &App{Name: "hbase", What: "table lock on " + table,
		Notes: []string{"HBase 1.x only: a waiter gives up after hbase.table.write.lock.timeout.ms (10 minutes by default), and a new master reaps locks older than hbase.table.lock.expire.ms"}}
	l.App = a
	var holders []string
	for i := range l.Participants {
		p := &l.Participants[i]
		if d, ok := DecodeHBaseTableLock(p.Data); ok && p.Role == RoleHolder {
			holders = append(holders, d.String())
			if a.HolderSession == 0 {
				a.HolderSession = p.Session
			}
		}
	}
	switch len(holders) {
	case 0:
	case 1:
		a.Holder = holders[0]
	default:
		a.Holder = fmt.Sprintf("%d readers: %s", len(holders), strings.Join(holders, "; "))
		a.HolderSession = 0
	}
}

// hbaseTableLockShape is the rule book entry of RecipeHBaseTableLock and its hooks.
func hbaseTableLockShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeHBaseTableLock), About: "Apache HBase 1.x table locks (ZKInterProcessReadWriteLock; removed in 2.0)",
		Paths: []string{"/**/table-lock/*"}, Children: "{mode}-{owner}{seq}", Modes: map[string]Mode{"read": ModeRead, "write": ModeWrite},
		Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderNumber, Identity: "decoder:hbase-table-lock",
	}, hooks: hooks{app: func(l *Lock, _ Tree) { analyzeHBaseTableLock(l) }}}
}
