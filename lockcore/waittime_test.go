package lockcore

import (
	"testing"
	"time"
)

func TestOldestWaiter(t *testing.T) {
	readAt := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	lock := func(ps ...Participant) *Lock { return &Lock{ReadAt: readAt, Participants: ps} }
	holder := Participant{Node: "lock-1", Role: RoleHolder, Age: 9 * time.Minute}
	w2 := Participant{Node: "lock-2", Role: RoleWaiter, Age: 6 * time.Minute}
	w3 := Participant{Node: "lock-3", Role: RoleWaiter, Age: 2 * time.Minute}
	part := Participant{Node: "read-4", Role: RoleWaiter, Age: 20 * time.Minute, PartOf: "lock-2"}
	for _, tc := range []struct {
		name     string
		l        *Lock
		now      time.Time
		wantNode string
		wantWait time.Duration
		wantOK   bool
	}{
		{"no waiter", lock(holder), readAt, "", 0, false},
		{"oldest of two, at the read", lock(holder, w3, w2), readAt, "lock-2", 6 * time.Minute, true},
		{"grows after the read", lock(holder, w2, w3), readAt.Add(30 * time.Second), "lock-2", 6*time.Minute + 30*time.Second, true},
		{"a part does not count", lock(holder, w3, part), readAt, "lock-3", 2 * time.Minute, true},
		{"hidden waiters have no node", &Lock{ReadAt: readAt, HiddenWaiters: []int64{1, 2}}, readAt, "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, wait, ok := tc.l.OldestWaiter(tc.now)
			if ok != tc.wantOK || p.Node != tc.wantNode || wait != tc.wantWait {
				t.Errorf("got %q %v %v, want %q %v %v", p.Node, wait, ok, tc.wantNode, tc.wantWait, tc.wantOK)
			}
		})
	}
}
