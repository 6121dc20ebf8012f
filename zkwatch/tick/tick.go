// Package tick runs a function on a period until a context ends, the one
// loop of the polls that do the same thing each time, in zkwatch and the
// layers above it, and waits for a timer's or a ticker's next tick unless
// the context ends first, for the loops that do more between ticks. A
// leaf: it imports nothing of zklocks.
package tick

import (
	"context"
	"time"
)

// Every calls f every period, first one period after it is called, until
// ctx ends; a call of f that outlasts the period delays the next (ticks
// are dropped, not queued). It returns once ctx ends, never during f.
func Every(ctx context.Context, period time.Duration, f func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for Wait(ctx, t.C) {
		f()
	}
}

// Wait blocks until c delivers (a timer's or a ticker's channel), and
// reports true, or until ctx ends, and reports false; when both are ready
// either may be taken.
func Wait(ctx context.Context, c <-chan time.Time) bool {
	select {
	case <-ctx.Done():
		return false
	case <-c:
		return true
	}
}
