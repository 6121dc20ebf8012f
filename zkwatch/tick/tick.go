// Package tick runs a function on a period until a context ends, the one
// loop of the polls that do the same thing each time, in zkwatch and the
// layers above it. A leaf: it imports nothing of zklocks.
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
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		f()
	}
}
