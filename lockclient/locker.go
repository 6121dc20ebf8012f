package lockclient

import (
	"context"
	"sync"
)

// Locker acquires one lock again and again, as go-zookeeper's zk.Lock and
// Curator's InterProcessMutex handles do: the recipe is detected on the
// first acquisition and kept, so later ones skip reading the parent.
// A Locker is safe for concurrent use; each Acquire is its own contender.
// Its work in the background is owned by its own Client (see Close).
type Locker struct {
	client *Client
	mu     sync.Mutex
	spec   Spec
}

// NewLocker returns a Locker for spec on c.
func NewLocker(c ZK, spec Spec) *Locker { return &Locker{client: NewClient(c), spec: spec} }

// Close stops the work the Locker's acquisitions and releases left in the
// background, as Client.Close does: call it as the connection closes.
func (l *Locker) Close() error { return l.client.Close() }

// Acquire is Acquire with the Locker's spec.
func (l *Locker) Acquire(ctx context.Context) (*Held, error) {
	l.mu.Lock()
	spec := l.spec
	l.mu.Unlock()
	h, err := l.client.Acquire(ctx, spec)
	if err == nil && spec.Recipe == "" {
		l.mu.Lock()
		l.spec.Recipe = h.Recipe
		l.mu.Unlock()
	}
	return h, err
}
