package model

import "github.com/zklocks/zklocks/lockcore"

// logEndOf is what a transaction log said of the end of the span sp,
// from its node's entries log.
func logEndOf(log []HistoryEntry, sp Span) StoryLogEnd {
	if sp.To.IsZero() {
		return StoryLogEnd{}
	}
	for _, h := range log {
		if h.Node != sp.Node || !h.At.Equal(sp.To) || (h.Change != Released && h.Change != Left) {
			continue
		}
		e := StoryLogEnd{SessionTimeout: h.Log.SessionTimeout, LastHeard: h.Log.LastHeard}
		if h.Log.DeletedBy != 0 {
			e.DeletedBy = lockcore.SessionHex(h.Log.DeletedBy)
		}
		return e
	}
	return StoryLogEnd{}
}
