package words

import (
	"context"
	"testing"
	"time"
)

// TestCostsSpent checks that a member's time over the last minute sums
// its own asks of every word, and none older than the minute nor of
// another member.
func TestCostsSpent(t *testing.T) {
	now := time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC)
	c := NewCostsWithClock(func() time.Time { return now })
	c.Record("a:2181", "srvr", ViaWord, 10*time.Millisecond, 100)
	now = now.Add(30 * time.Second)
	c.Record("a:2181", "dump", ViaWord, 200*time.Millisecond, 5<<20)
	c.Record("b:2181", "srvr", ViaWord, 7*time.Millisecond, 100)
	if got := c.Spent("a:2181"); got != 210*time.Millisecond {
		t.Errorf("a's time = %v, want 210ms", got)
	}
	now = now.Add(45 * time.Second) // the first ask is past the minute
	if got := c.Spent("a:2181"); got != 200*time.Millisecond {
		t.Errorf("a's time a minute after its first ask = %v, want 200ms", got)
	}
	if got := c.Spent("c:2181"); got != 0 {
		t.Errorf("a member never asked spent %v", got)
	}
	var none *Costs
	if got := none.Spent("a:2181"); got != 0 {
		t.Errorf("no Costs spent %v", got)
	}
}

// TestCostsTurn checks that a second ask of a member waits for the one
// under way, that another member's does not, and that a turn not given
// back in turnWait lets the next ask go alongside.
func TestCostsTurn(t *testing.T) {
	c := NewCosts()
	ctx := context.Background()
	done := c.turn(ctx, "a:2181")
	other := make(chan struct{})
	go func() { c.turn(ctx, "b:2181")(); close(other) }()
	<-other // another member's ask does not wait

	second := make(chan struct{})
	go func() { c.turn(ctx, "a:2181")(); close(second) }()
	select {
	case <-second:
		t.Fatal("a second ask of the member went while the first was under way")
	case <-time.After(50 * time.Millisecond):
	}
	done()
	<-second

	hold := c.turn(ctx, "a:2181")
	defer hold()
	start := time.Now()
	c.turn(ctx, "a:2181")()
	if waited := time.Since(start); waited < turnWait {
		t.Errorf("an ask went after %v beside one under way, want after turnWait (%v)", waited, turnWait)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	c.turn(cancelled, "a:2181")() // a context that ended does not wait
	var none *Costs
	none.turn(ctx, "a:2181")()

	// An ask given a deadline waits at most half of what is left, and
	// still has time to be answered when it goes alongside.
	bounded, cancelBounded := context.WithTimeout(ctx, turnWait/2)
	defer cancelBounded()
	c.turn(bounded, "a:2181")()
	if err := bounded.Err(); err != nil {
		t.Errorf("the ask waited for its turn until its own deadline: %v", err)
	}
}
