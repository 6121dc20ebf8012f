package zkserver

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// loadEnv sets how many goroutines keep the CPUs busy while
// TestIntegrationStartUnderLoad starts its servers; unset, the test skips.
const loadEnv = "ZKSERVER_START_LOAD"

// TestIntegrationStartUnderLoad starts eight servers at once while busy
// loops share the CPUs with them, as a loaded test machine does: each must
// come up however long the machine makes it take (a start under 128 busy
// goroutines on two cores took 36 to 46 s, where the tests once gave a
// start 30 s). It loads the machine for a minute or so, so it runs only
// when asked: ZKSERVER_START_LOAD=128 go test -run StartUnderLoad.
func TestIntegrationStartUnderLoad(t *testing.T) {
	busy, _ := strconv.Atoi(os.Getenv(loadEnv))
	if busy <= 0 {
		t.Skipf("set %s to the number of busy goroutines to run it", loadEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	runtime.GOMAXPROCS(busy + runtime.NumCPU())
	var spinning sync.WaitGroup
	for range busy {
		spinning.Add(1)
		go func() { defer spinning.Done(); spin(ctx) }()
	}
	defer func() { cancel(); spinning.Wait() }()

	const servers = 8
	var started sync.WaitGroup
	for i := range servers {
		started.Add(1)
		go func() {
			defer started.Done()
			begin := time.Now()
			s, err := Start(ctx, Config{})
			if err != nil {
				t.Errorf("server %d, after %v: %v", i, time.Since(begin).Round(time.Millisecond), err)
				return
			}
			used, _ := work(s.PID())
			t.Logf("server %d served after %v, its JVM having used %v of CPU", i, time.Since(begin).Round(time.Millisecond), used)
			s.Stop()
		}()
	}
	started.Wait()
}

// spin computes until ctx ends, looking at ctx only every few million
// steps so that nearly all of its time is spent on the CPU.
func spin(ctx context.Context) {
	var x uint64 = 1
	for ctx.Err() == nil {
		for range 1 << 22 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
}
