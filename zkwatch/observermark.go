package zkwatch

import (
	"context"

	"github.com/zklocks/zklocks/lockcore"
)

// markObserver arms the exists watch on zklocks' mark
// (lockcore.ObserverMark) that tells other zklocks watchers this session
// is one of them: the exists watches it keeps on plain lock nodes that
// are gone are then not taken for a waiter's. The mark is a server path,
// outside any chroot, and is armed once per session: nobody creates the
// node, so the watch lasts as long as the session. A failure is reported
// and changes nothing else: another zklocks may then count this session
// among the waiters of a free plain lock.
func (w *Watcher) markObserver(ctx context.Context) {
	w.sem <- struct{}{}
	_, _, _, err := w.conn.zk.ExistsW(lockcore.ObserverMark)
	<-w.sem
	if err != nil && ctx.Err() == nil {
		w.report(ctx, lockcore.ObserverMark, err, false)
	}
}
