package model

import (
	"fmt"

	"github.com/zklocks/zklocks/lockcore"
)

// HoldShort is a holder's hold for a table column: "42s" when the grant
// is known, "≤5m40s" when only an upper bound is (the time since the node
// was created, which includes its time in the queue).
func HoldShort(h lockcore.Hold) string {
	if h.Exact() {
		return Duration(h.Max)
	}
	return "≤" + Duration(h.Max)
}

// HoldText says a holder's hold in words, with its age when the grant is
// not known: "held for 42s", "held for at most 5m40s (queued 5m40s ago)",
// "held for 1m10s to 5m40s (queued 5m40s ago)".
func HoldText(h lockcore.Hold, age string) string {
	switch {
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
// with no holder.
func OldestHoldShort(l *lockcore.Lock) string {
	h, ok := l.OldestHold()
	if !ok {
		return "-"
	}
	return HoldShort(h)
}

// oldestHoldMs is a lock's longest hold in milliseconds (an upper bound
// unless exact), and whether it is exact; zero and true with no holder.
func oldestHoldMs(l *lockcore.Lock) (int64, bool) {
	h, ok := l.OldestHold()
	if !ok {
		return 0, true
	}
	return h.Max.Milliseconds(), h.Exact()
}
