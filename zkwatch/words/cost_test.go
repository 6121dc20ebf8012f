package words

import (
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
