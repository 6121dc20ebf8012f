package tick

import (
	"context"
	"testing"
	"time"
)

// TestEveryCallsUntilCancelled: f is called on each tick, and Every
// returns once ctx ends (a tick already due may still be taken first).
// Every that stopped ticking, or went on after ctx ended, never returns
// and the test times out.
func TestEveryCallsUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	Every(ctx, time.Millisecond, func() {
		calls++
		if calls == 3 {
			cancel()
		}
	})
	if ctx.Err() == nil {
		t.Fatal("Every returned before ctx ended")
	}
}

// TestEveryEndedNeverCalls: with ctx already ended, Every returns without
// calling f (the first call comes a period after the start).
func TestEveryEndedNeverCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Every(ctx, time.Hour, func() { t.Error("f called after ctx ended") })
}

// TestWaitTick: a channel that delivers is reported as a tick while ctx
// lives.
func TestWaitTick(t *testing.T) {
	c := make(chan time.Time, 1)
	c <- time.Now()
	if !Wait(context.Background(), c) {
		t.Fatal("Wait reported the context ended on a tick")
	}
}

// TestWaitEnded: with ctx ended and no tick coming, Wait reports false
// (a Wait that ignored ctx would block and the test time out).
func TestWaitEnded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Wait(ctx, make(chan time.Time)) {
		t.Fatal("Wait reported a tick that never came")
	}
}
