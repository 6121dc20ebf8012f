package model

import (
	"context"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestActionFeedMerge: actions told join the watcher's events in order
// with them, and the merged stream closes when the watcher's does; once
// its context ends, the watcher's events are still read to their end.
func TestActionFeedMerge(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	events := make(chan zkwatch.Event)
	f := NewActionFeed()
	out := f.Merge(ctx, events)
	events <- zkwatch.Event{Kind: zkwatch.EventSynced}
	if ev := <-out; ev.Kind != zkwatch.EventSynced {
		t.Fatalf("first: %v", ev.Kind)
	}
	f.Tell(lockcore.Action{Kind: lockcore.ActionRevoke, Node: "/l/n", At: time.Unix(1, 0)})
	if ev := <-out; ev.Kind != zkwatch.EventAction || ev.Path != "/l/n" || ev.Action == nil || ev.Action.Kind != lockcore.ActionRevoke {
		t.Fatalf("the action came as %+v", ev)
	}
	cancel()
	// The watcher, which ends with the same context, is never left
	// waiting on its send.
	select {
	case events <- zkwatch.Event{Kind: zkwatch.EventError}:
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher's event was not read after the context ended")
	}
	close(events)
	for range out {
	}
}

// BenchmarkActionFeedMerge is what the merge adds to each of the
// watcher's events on its way to the state.
func BenchmarkActionFeedMerge(b *testing.B) {
	events := make(chan zkwatch.Event, mergedBuffer)
	out := NewActionFeed().Merge(b.Context(), events)
	go func() {
		for range b.N {
			events <- zkwatch.Event{Kind: zkwatch.EventLock}
		}
		close(events)
	}()
	for range out {
	}
}
