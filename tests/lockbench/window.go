package lockbench

import (
	"context"
	"fmt"
	"time"
)

// DefaultStall is how long a window that ends by progress (Config.Until)
// waits for any acquisition before the run fails.
const DefaultStall = 60 * time.Second

// progressPoll is how often a window that ends by progress asks the
// contenders how far they are.
const progressPoll = 20 * time.Millisecond

// waitWindow holds the window open: Window long, or, with Until, until
// every contender has acquired Until times since it opened.
func waitWindow(ctx context.Context, cfg Config, d driver) error {
	if cfg.Until <= 0 {
		return sleep(ctx, cfg.Window)
	}
	base, err := d.progress(ctx)
	if err != nil {
		return err
	}
	return untilAcquired(ctx, cfg.Until, cfg.Stall, base, d.progress)
}

// untilAcquired polls progress until every contender has acquired until
// times beyond base. It fails when no contender's count has grown for
// stall: the run stopped, where a slow one only takes longer.
func untilAcquired(ctx context.Context, until int, stall time.Duration, base []int64, progress func(context.Context) ([]int64, error)) error {
	total := func(n []int64) (sum int64) {
		for _, v := range n {
			sum += v
		}
		return sum
	}
	last, moved := total(base), time.Now()
	tick := time.NewTicker(progressPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		now, err := progress(ctx)
		if err != nil {
			return err
		}
		if len(now) != len(base) {
			return fmt.Errorf("progress of %d contenders, %d at the window's opening", len(now), len(base))
		}
		done := true
		for i := range now {
			if now[i]-base[i] < int64(until) {
				done = false
			}
		}
		if done {
			return nil
		}
		if t := total(now); t != last {
			last, moved = t, time.Now()
		} else if time.Since(moved) >= stall {
			return fmt.Errorf("no acquisition for %v: %d beyond the window's opening, by contender, of %d each wanted", stall, diff(now, base), until)
		}
	}
}

func diff(a, b []int64) []int64 {
	d := make([]int64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}
