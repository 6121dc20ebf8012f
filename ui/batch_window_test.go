package ui

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// TestWatchEventsGatherWithinWindow: an event that comes after the first
// one, within the window, goes in the same message; the channel closing
// ends the gathering at once.
func TestWatchEventsGatherWithinWindow(t *testing.T) {
	defer func(w time.Duration) { batchWindow = w }(batchWindow)
	batchWindow = time.Minute
	ch := make(chan zkwatch.Event, 1)
	ch <- zkwatch.Event{Kind: zkwatch.EventLock, Path: "/a"}
	go func() {
		time.Sleep(20 * time.Millisecond) // well after the first is taken
		ch <- zkwatch.Event{Kind: zkwatch.EventLock, Path: "/b"}
		close(ch)
	}()
	msg := waitForEvents(ch)().(watchEventsMsg)
	if len(msg.events) != 2 || !msg.closed {
		t.Fatalf("%d events, closed %v; want both events and the close in one message", len(msg.events), msg.closed)
	}
}

// TestWatchEventsWindowEnds: once the window has passed, what came goes
// without waiting for more.
func TestWatchEventsWindowEnds(t *testing.T) {
	defer func(w time.Duration) { batchWindow = w }(batchWindow)
	batchWindow = time.Millisecond
	ch := make(chan zkwatch.Event, 1)
	ch <- zkwatch.Event{Kind: zkwatch.EventLock, Path: "/a"}
	msg := waitForEvents(ch)().(watchEventsMsg)
	if len(msg.events) != 1 || msg.closed {
		t.Fatalf("%d events, closed %v; want the one event, the channel open", len(msg.events), msg.closed)
	}
}

// TestWatchEventsTakeWhatWaits: events already waiting when the window has
// passed all go in the message, up to maxBatch: a goroutine that ran late
// (a loaded machine) must not cut a burst that had arrived in time.
func TestWatchEventsTakeWhatWaits(t *testing.T) {
	defer func(w time.Duration) { batchWindow = w }(batchWindow)
	batchWindow = time.Nanosecond
	ch := make(chan zkwatch.Event, 2*maxBatch)
	for i := 0; i < 2*maxBatch; i++ {
		ch <- zkwatch.Event{Kind: zkwatch.EventLock, Path: "/a"}
	}
	msg := waitForEvents(ch)().(watchEventsMsg)
	if len(msg.events) != maxBatch || msg.closed {
		t.Fatalf("%d events, closed %v; want %d, the channel open", len(msg.events), msg.closed, maxBatch)
	}
}
