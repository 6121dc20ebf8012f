package lockcore

import (
	"fmt"
	"slices"
	"testing"
)

func held(path string, parts ...Participant) *Lock { return &Lock{Path: path, Participants: parts} }

func TestCrossLocks(t *testing.T) {
	h := func(s int64) Participant { return Participant{Session: s, Role: RoleHolder} }
	w := func(s int64) Participant { return Participant{Session: s, Role: RoleWaiter} }
	for _, tc := range []struct {
		name   string
		locks  []*Lock
		cross  int
		cycles [][]int64
	}{
		{"nobody holds while waiting", []*Lock{held("/a", h(1), w(2)), held("/b", h(3), w(2))}, 0, nil},
		{"one MultiLock part-way", []*Lock{held("/a", h(1)), held("/b", h(2), w(1))}, 1, nil},
		{"two in opposite orders", []*Lock{held("/a", h(1), w(2)), held("/b", h(2), w(1))}, 2, [][]int64{{1, 2}}},
		{"three in a ring", []*Lock{held("/a", h(1), w(3)), held("/b", h(2), w(1)), held("/c", h(3), w(2))}, 3, [][]int64{{1, 2, 3}}},
		{"a read lock held by two", []*Lock{held("/a", h(1), h(2)), held("/b", h(3), w(1), w(2))}, 2, nil},
		{"persistent holders have no session", []*Lock{held("/a", h(0)), held("/b", h(1), w(0))}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cross, cycles := CrossLocks(tc.locks)
			var got [][]int64
			for _, c := range cycles {
				got = append(got, c.Sessions)
				if len(c.Locks) != len(c.Sessions) || c.Detail() == "" {
					t.Fatalf("cycle %+v", c)
				}
			}
			if len(cross) != tc.cross || !slices.EqualFunc(got, tc.cycles, slices.Equal) {
				t.Fatalf("cross %+v, cycles %v; want %d, %v", cross, got, tc.cross, tc.cycles)
			}
		})
	}
}

// denseCross is n sessions, each holding its own lock and waiting in
// every other one: one group, every session waiting for every other.
func denseCross(n int) []*Lock {
	var locks []*Lock
	for i := 1; i <= n; i++ {
		l := held(fmt.Sprintf("/l/%03d", i), Participant{Session: int64(i), Role: RoleHolder})
		for j := 1; j <= n; j++ {
			if j != i {
				l.Participants = append(l.Participants, Participant{Session: int64(j), Role: RoleWaiter})
			}
		}
		locks = append(locks, l)
	}
	return locks
}

func TestCrossLocksDense(t *testing.T) {
	// Enumerating every loop here would never end; one per group does.
	cross, cycles := CrossLocks(denseCross(60))
	if len(cross) != 60 || len(cycles) != 1 || len(cycles[0].Sessions) != 2 || cycles[0].Sessions[0] != 1 {
		t.Fatalf("%d cross, cycles %+v", len(cross), cycles)
	}
}

func BenchmarkCrossLocksDense(b *testing.B) {
	locks := denseCross(200)
	for b.Loop() {
		CrossLocks(locks)
	}
}
