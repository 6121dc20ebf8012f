// Package cpuload loads a machine's cores for tests that must hold under
// load: a late ping, a slow answer, a poll held up, as a loaded
// production host or a shared CI runner makes them.
package cpuload

import (
	"context"
	"runtime"
	"time"
)

// Busy keeps every core busy until the returned stop is called or limit
// passes, whichever comes first. Calling stop more than once is safe.
func Busy(limit time.Duration) (stop func()) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	for range runtime.NumCPU() {
		go func() {
			for ctx.Err() == nil {
				for i := 0; i < 1e5; i++ {
				}
			}
		}()
	}
	return cancel
}
