package model

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestNodeIndexIsAMap checks the index against a map over random sets
// and removals, across the count at which it moves to a map of its own.
func TestNodeIndexIsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
		var x nodeIndex[int]
		want := map[string]int{}
		nodes := 1 + r.IntN(3*nodeIndexFew)
		for op := range 300 {
			n := fmt.Sprintf("n%d", r.IntN(nodes))
			switch r.IntN(3) {
			case 0, 1:
				x.set(n, op)
				want[n] = op
			default:
				x.remove(n)
				delete(want, n)
			}
			q := fmt.Sprintf("n%d", r.IntN(nodes))
			got, ok := x.get(q)
			w, wok := want[q]
			if ok != wok || got != w {
				t.Fatalf("round %d op %d: get(%s) = %d, %v; want %d, %v", round, op, q, got, ok, w, wok)
			}
		}
		m := x.asMap()
		if len(want) == 0 {
			if m != nil {
				t.Fatalf("round %d: empty index as a map is %v, want nil", round, m)
			}
			continue
		}
		if !maps.Equal(m, want) {
			t.Fatalf("round %d: as a map %v, want %v", round, m, want)
		}
	}
}
