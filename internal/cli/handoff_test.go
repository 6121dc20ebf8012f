package cli

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// TestHandoffAppliesEveryEventInOrder: across several batches and a part
// of one, every event is applied once, in the order sent, and all of
// them before close returns.
func TestHandoffAppliesEveryEventInOrder(t *testing.T) {
	for _, n := range []int{0, 1, handoffBatch, 3*handoffBatch + 17} {
		var got []int64
		h := newHandoff(func(ev zkwatch.Event) { got = append(got, ev.At.UnixNano()) })
		for i := range n {
			h.send(zkwatch.Event{At: time.Unix(0, int64(i))})
		}
		h.close()
		if len(got) != n {
			t.Fatalf("%d sent, %d applied", n, len(got))
		}
		for i, v := range got {
			if v != int64(i) {
				t.Fatalf("%d sent: the %dth applied is event %d", n, i, v)
			}
		}
	}
}
