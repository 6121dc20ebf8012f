package lockbench

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseCount(t *testing.T) {
	n, err := parseCount("count 3 0 12")
	if err != nil || len(n) != 3 || n[0] != 3 || n[1] != 0 || n[2] != 12 {
		t.Errorf("parseCount = %v, %v; want [3 0 12]", n, err)
	}
	for _, bad := range []string{"count", "hold 1 2 3", "count 1 x", ""} {
		if _, err := parseCount(bad); err == nil {
			t.Errorf("parseCount(%q) accepted it", bad)
		}
	}
}

// A window by progress outlasts its stall bound many times over while the
// loops keep acquiring, however slowly, and ends once each contender is
// through.
func TestUntilAcquiredWaitsForSlowProgress(t *testing.T) {
	const stall = 100 * time.Millisecond
	// One acquisition every 60 ms of the clock, taking turns: 10 for both
	// to reach 5 beyond the base, about 600 ms, six stall bounds. Counted
	// by the clock, not by polls, as real acquisitions are: a poll that a
	// loaded machine delays finds the acquisitions made meanwhile.
	start := time.Now()
	progress := func(context.Context) ([]int64, error) {
		steps := int64(time.Since(start) / (60 * time.Millisecond))
		return []int64{7 + (steps+1)/2, 2 + steps/2}, nil
	}
	if err := untilAcquired(context.Background(), 5, stall, []int64{7, 2}, progress); err != nil {
		t.Fatalf("a slow but steady run failed: %v", err)
	}
	if got := time.Since(start); got < 5*stall {
		t.Errorf("ended after %v, before both contenders could acquire 5 times", got)
	}
}

// One contender acquiring while the other waits is progress; the window
// ends only when the waiting one has its turns too, or all stop.
func TestUntilAcquiredFailsWhenTheLoopsStop(t *testing.T) {
	var polls atomic.Int64
	const stall = 150 * time.Millisecond
	// Contender 0 acquires for the first ten polls, then nothing moves.
	progress := func(context.Context) ([]int64, error) {
		return []int64{min(polls.Add(1), 10), 0}, nil
	}
	// The stall bound, not the context, ends it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	err := untilAcquired(ctx, 3, stall, []int64{0, 0}, progress)
	if err == nil || !strings.Contains(err.Error(), "no acquisition for") || !strings.Contains(err.Error(), "[10 0]") {
		t.Fatalf("a stopped run: err %v, want no acquisition, [10 0] by contender", err)
	}
	// Not before a stall bound has passed since the last acquisition.
	if got := time.Since(start); got < 10*progressPoll+stall {
		t.Errorf("failed after %v, before the stall bound", got)
	}
}

func TestUntilAcquiredReportsProgressErrors(t *testing.T) {
	boom := errors.New("boom")
	err := untilAcquired(context.Background(), 1, time.Minute, []int64{0}, func(context.Context) ([]int64, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Errorf("err %v, want boom", err)
	}
}
