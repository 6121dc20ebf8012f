package txnlog

import (
	"fmt"
	"testing"
)

// TestVisitedAddsEachPathOnce: a path is new to a transaction's visits
// once, whether they are few or past the slice's sixteen.
func TestVisitedAddsEachPathOnce(t *testing.T) {
	var v visited
	// 7 and 40 are coprime: the first 40 steps meet each path once.
	for i := range 120 {
		p := fmt.Sprintf("/locks/l%d", (i*7)%40)
		if got := v.add(p); got != (i < 40) {
			t.Fatalf("step %d, %s: add %v", i, p, got)
		}
	}
	if v.many == nil || len(v.many) != 40 {
		t.Errorf("%d paths kept in the map", len(v.many))
	}
}
