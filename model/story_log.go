package model

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// logEndOf is what a transaction log said of the end of the span sp: the
// deleting session (another than its owner), its own session's timeout,
// and when its client was last heard from.
func logEndOf(log []HistoryEntry, sp Span) (deletedBy string, timeout time.Duration, lastHeard time.Time) {
	if sp.To.IsZero() {
		return "", 0, time.Time{}
	}
	for _, h := range log {
		if h.Node != sp.Node || !h.At.Equal(sp.To) || (h.Change != Released && h.Change != Left) {
			continue
		}
		if h.Log.DeletedBy != 0 {
			deletedBy = lockcore.SessionHex(h.Log.DeletedBy)
		}
		return deletedBy, h.Log.SessionTimeout, h.Log.LastHeard
	}
	return "", 0, time.Time{}
}
