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

// A reader going from one snapshot of a State to the next takes in the
// locks that changed between them, while the State moves on.
func TestSnapshotLockChanges(t *testing.T) {
	lock := func(p string) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, Path: p, Lock: &lockcore.Lock{Path: p}}
	}
	s := NewState()
	s.Apply(lock("/a"))
	first := s.Snapshot()
	_, mark, ok := first.LockChanges(LockMark{})
	if ok {
		t.Fatal("the zero mark told changes")
	}
	// The State moves on while the snapshot is read.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 * minJournal {
			s.Apply(lock("/b"))
		}
	}()
	for range 100 {
		if got, _, ok := first.LockChanges(mark); !ok || len(got) != 0 {
			t.Fatalf("a snapshot changed under its reader: %v %v", got, ok)
		}
	}
	<-done
	// Past what the journal keeps: the reader starts over.
	if _, _, ok := s.Snapshot().LockChanges(mark); ok {
		t.Fatal("a mark older than the changes kept told changes")
	}
	second := s.Snapshot()
	_, mark, _ = second.LockChanges(LockMark{})
	s.Apply(lock("/c"))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLockGone, Path: "/a"})
	third := s.Snapshot()
	got, _, ok := third.LockChanges(mark)
	if !ok || !slices.Equal(got, []string{"/c", "/a"}) {
		t.Fatalf("from one snapshot to the next: %v (known %v), want [/c /a]", got, ok)
	}
	// A snapshot applied to has changes of its own, never its original's.
	third.Apply(lock("/d"))
	if got, _, ok := s.LockChanges(mark); !ok || slices.Contains(got, "/d") {
		t.Fatalf("a snapshot's change showed in its original: %v", got)
	}
	if _, _, ok := third.LockChanges(mark); ok {
		t.Fatal("a snapshot applied to told changes against its original's mark")
	}
}
