package model

import (
	"fmt"

	"github.com/zklocks/zklocks/lockcore"
)

// HoldShort is a holder's hold for a table column: "42s" when the grant
// is known, "≤5m40s" when only an upper bound is (the time since the node
// was created, which includes its time in the queue); PendingMark when its
// node is not read yet.
func HoldShort(h lockcore.Hold) string {
	if h.How == lockcore.HoldPending {
		return PendingMark
	}
	if h.Exact() || h.Min > 0 && Duration(h.Min) == Duration(h.Max) {
		// Bounds that read the same are one figure, as HoldText says it.
		return Duration(h.Max)
	}
	return "≤" + Duration(h.Max)
}

// HoldText says a holder's hold in words, with its age when the grant is
// not known: "held for 42s", "held for at most 5m40s (queued 5m40s ago)",
// "held for 1m10s to 5m40s (queued 5m40s ago)"; "hold not read yet" when
// its node is not read.
func HoldText(h lockcore.Hold, age string) string {
	switch {
	case h.How == lockcore.HoldPending:
		return "hold " + NotRead
	case h.Exact(), h.Min > 0 && Duration(h.Min) == Duration(h.Max):
		// Bounds that read the same are one figure: "held for 15s", not
		// "15s to 15s".
		return "held for " + Duration(h.Max)
	case h.Min > 0:
		return fmt.Sprintf("held for %s to %s (queued %s ago)", Duration(h.Min), Duration(h.Max), age)
	}
	return fmt.Sprintf("held for at most %s (queued %s ago)", Duration(h.Max), age)
}

// OldestHoldShort is a lock's longest hold for a table column, or "-"
// with no holder: PendingMark when no holder is read yet, and the longest
// known one followed by "+…" when some are not (theirs may be longer).
func OldestHoldShort(l *lockcore.Lock) string {
	return OldestHoldShortOf(OldestHold(l))
}

// OldestHoldShortOf is OldestHoldShort of what OldestHold returned, so
// that a caller can grow h to the present first.
func OldestHoldShortOf(h lockcore.Hold, known bool, pending int) string {
	switch {
	case !known && pending > 0:
		return PendingMark
	case !known:
		return "-"
	case pending > 0:
		return HoldShort(h) + "+" + PendingMark
	}
	return HoldShort(h)
}
