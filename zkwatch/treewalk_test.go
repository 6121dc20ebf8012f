package zkwatch

import (
	"context"
	"testing"
	"time"
)

func TestLimiterPacesInNaps(t *testing.T) {
	l := newLimiter(2000, 1)
	clock := l.last
	naps := 0
	l.now = func() time.Time { return clock }
	l.sleep = func(_ context.Context, d time.Duration) bool {
		if d < limiterNap {
			t.Errorf("a nap of %v, shorter than %v", d, limiterNap)
		}
		naps++
		clock = clock.Add(d)
		return true
	}
	for range 1100 {
		if !l.wait(context.Background()) {
			t.Fatal("wait gave up without cause")
		}
	}
	// 2,000 a second after a first 100: 1,000 more take half a second,
	// in naps of 50 ms, not one nap a request.
	if naps < 9 || naps > 12 {
		t.Errorf("1,100 requests took %d naps; want about 10", naps)
	}
}
