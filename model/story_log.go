package model

import (
	"fmt"
	"strings"
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

// writeLogEnd writes what a transaction log said of an ending.
func writeLogEnd(b *strings.Builder, end, deletedBy string, timeout time.Duration, lastHeard time.Time, loc *time.Location) {
	if deletedBy != "" {
		fmt.Fprintf(b, "      deleted by session %s, not its own\n", deletedBy)
	}
	if end != EndExpired && end != EndClosed {
		return
	}
	var parts []string
	if timeout > 0 {
		parts = append(parts, "session timeout "+timeout.String())
	}
	if !lastHeard.IsZero() {
		parts = append(parts, "its session's last transaction at "+storyTime(lastHeard, loc))
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "      %s\n", strings.Join(parts, "; "))
	}
}

// writePartial writes why a story's source did not hold the whole
// stretch, and where members' logs differ.
func writePartial(b *strings.Builder, partial, members []string) {
	for _, p := range partial {
		fmt.Fprintf(b, "PARTIAL: %s\n", Printable(p))
	}
	for _, m := range members {
		fmt.Fprintf(b, "members: %s\n", Printable(m))
	}
}
