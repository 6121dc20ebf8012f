package serve

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// tapBuffer is how many events a Tap may have waiting before it is cut
// off: a hub never waits for a tap, so that no session waits for one.
const tapBuffer = 1 << 16

// errHubStopped refuses a tap on a watcher that has just stopped.
var errHubStopped = errors.New("serve: the cluster's watcher stopped")

// Tap is a subscriber to a cluster's events themselves rather than its
// pictures: for what must see every event in order, such as a recording
// of what the shared watcher saw. Start is the state when the tap began,
// and Events carries every event the watcher reported after it, in
// order, until the tap is closed, the watcher stops, or the tap falls
// more than tapBuffer events behind (then Lost reports true). A tap keeps
// the cluster's watcher running, as a session does. Close it when done.
type Tap struct {
	// Start is the state the events follow; never changed.
	Start *model.State

	h      *hub
	events chan zkwatch.Event
	ready  chan struct{} // closed once Start is set
	lost   atomic.Bool
	once   sync.Once
	leave  func()
}

// Events are the watcher's events after Start; closed at the end.
func (t *Tap) Events() <-chan zkwatch.Event { return t.events }

// Lost reports whether the tap was cut off for falling behind: Events
// closed before the watcher stopped or the tap was closed, and events
// after its last one are missing.
func (t *Tap) Lost() bool { return t.lost.Load() }

// Name is the context's name.
func (t *Tap) Name() string { return t.h.name }

// Cluster is the connection and settings the hub watches.
func (t *Tap) Cluster() Cluster { return t.h.cluster }

// Close stops the tap; the hub stops Linger after its last session or
// tap left.
func (t *Tap) Close() {
	t.once.Do(func() {
		h := t.h
		h.mu.Lock()
		if _, ok := h.tapped[t]; ok {
			delete(h.tapped, t)
			close(t.events)
		}
		h.mu.Unlock()
		if t.leave != nil {
			t.leave()
		}
	})
}

// Tap subscribes to the named cluster's events, dialling it and starting
// its watcher if nobody is on it; ctx bounds the dial.
func (c *Clusters) Tap(ctx context.Context, name string) (*Tap, error) {
	e, release, err := c.acquire(ctx, name)
	if err != nil {
		return nil, err
	}
	t := &Tap{h: e.hub, events: make(chan zkwatch.Event, tapBuffer), ready: make(chan struct{}), leave: release}
	select {
	case e.hub.taps <- t:
	case <-e.hub.done:
		release()
		return nil, errHubStopped
	}
	// The run loop sets Start and lists t before it applies another event.
	<-t.ready
	return t, nil
}

// startTap takes t in, in the run loop: its start is the state now, its
// events those applied next.
func (h *hub) startTap(t *Tap, state *model.State) {
	t.Start = state.Clone()
	h.mu.Lock()
	h.tapped[t] = struct{}{}
	h.mu.Unlock()
	close(t.ready)
}

// tell passes ev to every tap, cutting off one that fell too far behind.
func (h *hub) tell(ev zkwatch.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for t := range h.tapped {
		select {
		case t.events <- ev:
		default:
			t.lost.Store(true)
			close(t.events)
			delete(h.tapped, t)
		}
	}
}
