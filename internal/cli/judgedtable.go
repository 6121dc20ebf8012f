package cli

import (
	"context"
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// judgedTable is the watch table to analyse trees against, given first,
// the table read once after them. A client sets its watch after it
// creates its node and lists the queue, and a table read in between shows
// it watching nothing: against first alone (no table read before it), a
// waiter absent from it is not judged. When some waiter is, the table is
// read again: every node of the trees was there when first was read, so
// each waiter's client had that read's time to set its watch, and the
// second table judges them all. Where the second read fails, first is
// kept and those waiters' watches stay unknown, as they are.
func judgedTable(ctx context.Context, conn *zkwatch.Conn, timeout time.Duration, q zkwatch.WatchQuery, trees []lockcore.Tree,
	first *lockcore.WatchTable, opt lockcore.Options) *lockcore.WatchTable {
	if first == nil || !absentWaiters(trees, first, opt) {
		return first
	}
	var last int64
	for _, t := range trees {
		last = max(last, t.LastZxid())
	}
	watchCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	second, err := conn.ReadWatches(watchCtx, q)
	if err != nil {
		return first
	}
	return second.Since(last)
}

// absentWaiters reports whether any tree, analysed against w, has a
// waiter that w cannot judge until a later table.
func absentWaiters(trees []lockcore.Tree, w *lockcore.WatchTable, opt lockcore.Options) bool {
	for _, t := range trees {
		l := lockcore.Analyze(t, w, opt)
		if slices.ContainsFunc(l.Participants, lockcore.Participant.WatchMaybeUnset) {
			return true
		}
	}
	return false
}
