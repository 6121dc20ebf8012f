package model

import (
	"slices"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestLockChanges(t *testing.T) {
	lock := func(p string) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, Path: p, Lock: &lockcore.Lock{Path: p}}
	}
	gone := func(p string) zkwatch.Event { return zkwatch.Event{Kind: zkwatch.EventLockGone, Path: p} }
	s := NewState()
	if _, _, ok := s.LockChanges(LockMark{}); ok {
		t.Fatal("the zero mark told changes")
	}
	_, mark, _ := s.LockChanges(LockMark{})
	for _, step := range []struct {
		events []zkwatch.Event
		want   []string
	}{
		{nil, nil},
		{[]zkwatch.Event{lock("/a"), lock("/b")}, []string{"/a", "/b"}},
		{[]zkwatch.Event{gone("/a"), lock("/b")}, []string{"/a", "/b"}},
		{[]zkwatch.Event{{Kind: zkwatch.EventSynced}}, nil},
	} {
		for _, ev := range step.events {
			s.Apply(ev)
		}
		got, next, ok := s.LockChanges(mark)
		if !ok || !slices.Equal(got, step.want) {
			t.Errorf("after %d events: %v (known %v), want %v", len(step.events), got, ok, step.want)
		}
		mark = next
	}
	c := s.Clone()
	c.Apply(lock("/c"))
	if _, _, ok := c.LockChanges(mark); ok {
		t.Error("a clone told changes against its original's mark")
	}
	if got, _, ok := s.LockChanges(mark); !ok || len(got) != 0 {
		t.Errorf("the clone's change showed in the original: %v", got)
	}
	for range minJournal + 1 {
		s.Apply(lock("/b"))
	}
	if _, _, ok := s.LockChanges(mark); ok {
		t.Error("a mark older than the changes kept told changes")
	}
}
