package lockcore

import (
	"fmt"
	"testing"
)

// BenchmarkAnalyzeSharedSessions: analysing each of 5,000 locks of six
// contenders whose six sessions are shared by every lock, as one client
// process holding many locks makes them, each waiter watching its
// predecessor (30,000 watches, 5,000 a session). "rules" analyses without
// the servers' watch table, the baseline; "table" with it, which must cost
// about as much: a session's watches in other locks are not this lock's
// business.
func BenchmarkAnalyzeSharedSessions(b *testing.B) {
	const locks, contenders = 5000, 6
	bld := &builder{}
	var trees []Tree
	watches := map[int64][]string{}
	for i := range locks {
		path := fmt.Sprintf("/app/locks/lock-%05d", i)
		var kids []Node
		for j := range contenders {
			kids = append(kids, bld.node(curatorName("lock-", j), int64(100+j)))
			if j > 0 {
				watches[int64(100+j)] = append(watches[int64(100+j)], path+"/"+kids[j-1].Name)
			}
		}
		trees = append(trees, settled(queueTree(path, kids...)))
	}
	table := NewWatchTable(watches)
	for _, c := range []struct {
		name  string
		table *WatchTable
	}{{"rules", nil}, {"table", table}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Analyze(trees[i%len(trees)], c.table, Options{})
			}
		})
	}
}
