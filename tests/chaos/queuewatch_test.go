package chaos

import (
	"slices"
	"testing"
	"time"
)

func TestQueueWatch(t *testing.T) {
	start := time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	queued := map[string]int{"/moving": 3, "/stuck": 2, "/empty": 0, "/drained": 1}
	exits := map[string]time.Time{}
	w := newQueueWatch(time.Minute, start, []string{"/moving", "/stuck", "/empty", "/drained"},
		func(l string) int { return queued[l] }, func(l string) time.Time { return exits[l] })

	for s := 0; s < 60; s += 5 {
		exits["/moving"] = at(s)
		if got := w.check(at(s)); len(got) != 0 {
			t.Fatalf("at %ds: %v stalled before a minute without an exit", s, got)
		}
	}
	// /drained empties at 50 s, then holds a node again: its minute counts
	// from the moment it was last seen empty.
	queued["/drained"] = 0
	w.check(at(50))
	queued["/drained"] = 1
	exits["/moving"] = at(60)
	got := w.check(at(60))
	slices.Sort(got)
	if !slices.Equal(got, []string{"/stuck"}) {
		t.Errorf("at 60s stalled %v, want [/stuck]", got)
	}
	exits["/moving"] = at(110)
	got = w.check(at(110))
	slices.Sort(got)
	if !slices.Equal(got, []string{"/drained", "/stuck"}) {
		t.Errorf("at 110s stalled %v, want [/drained /stuck]", got)
	}
}
