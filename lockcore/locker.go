package lockcore

import (
	"context"
	"sync"
)

// Locker acquires one lock again and again, as go-zookeeper's zk.Lock and
// Curator's InterProcessMutex handles do: the recipe is detected on the
// first acquisition and kept, so later ones skip reading the parent.
// A Locker is safe for concurrent use; each Acquire is its own contender.
type Locker struct {
	c    ZK
	mu   sync.Mutex
	spec Spec
}

// NewLocker returns a Locker for spec on c.
func NewLocker(c ZK, spec Spec) *Locker { return &Locker{c: c, spec: spec} }

// Acquire is Acquire with the Locker's spec.
func (l *Locker) Acquire(ctx context.Context) (*Held, error) {
	l.mu.Lock()
	spec := l.spec
	l.mu.Unlock()
	h, err := Acquire(ctx, l.c, spec)
	if err == nil && spec.Recipe == "" {
		l.mu.Lock()
		l.spec.Recipe = h.Recipe
		l.mu.Unlock()
	}
	return h, err
}
