package smallmap

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestMapIsAMap checks a Map against a Go map over random sets and
// deletions, across the count at which it moves to a map of its own.
func TestMapIsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
		var x Map[int]
		want := map[string]int{}
		keys := 1 + r.IntN(3*few)
		for op := range 300 {
			k := fmt.Sprintf("n%d", r.IntN(keys))
			switch r.IntN(3) {
			case 0, 1:
				x.Set(k, op)
				want[k] = op
			default:
				x.Delete(k)
				delete(want, k)
			}
			q := fmt.Sprintf("n%d", r.IntN(keys))
			got, ok := x.Get(q)
			w, wok := want[q]
			if ok != wok || got != w {
				t.Fatalf("round %d op %d: Get(%s) = %d, %v; want %d, %v", round, op, q, got, ok, w, wok)
			}
		}
		m := x.AsMap()
		if len(want) == 0 {
			if m != nil {
				t.Fatalf("round %d: an empty Map as a map is %v, want nil", round, m)
			}
			continue
		}
		if !maps.Equal(m, want) {
			t.Fatalf("round %d: as a map %v, want %v", round, m, want)
		}
	}
}
