package main

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// spin keeps n goroutines busy for at most limit, or until ctx ends, and
// returns a function that stops them and waits for them to stop. The load
// dies with the process too, so it cannot outlive a run that fails or is
// interrupted.
func spin(ctx context.Context, n int, limit time.Duration) (stop func()) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	if n > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			busy(ctx)
		}()
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// busy computes until ctx ends, looking at ctx only every few million
// steps so that nearly all of its time is spent on the CPU.
func busy(ctx context.Context) uint64 {
	var x uint64 = 1
	for {
		for range 1 << 22 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
		if ctx.Err() != nil {
			return x
		}
	}
}
