package hub

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// errStopping refuses a join while the registry shuts down. The words
// are zklocks serve's, whose sessions say them.
var errStopping = errors.New("serve: the server is stopping")

// Clusters are the clusters a server offers, each watched by one hub for
// every session on it: started at the first session's join, and stopped
// Linger after its last session left (a viewer who reconnects, or
// switches away and back, finds it still warm).
type Clusters struct {
	dial   Dialer
	linger time.Duration
	// logf, when set, is told when a watcher starts and stops.
	logf func(format string, args ...any)

	mu       sync.Mutex
	entries  map[string]*entry
	stopping bool
}

// entry is one cluster's hub, or its dial under way.
type entry struct {
	ready  chan struct{} // closed once dialled (hub or err set)
	hub    *hub
	err    error
	feeds  int
	linger *time.Timer // stops the hub once it has had no feed for Linger
}

// NewClusters dials with dial, and stops a hub linger after its last
// session left; logf, when not nil, is told when a watcher starts and
// stops.
func NewClusters(dial Dialer, linger time.Duration, logf func(format string, args ...any)) *Clusters {
	return &Clusters{dial: dial, linger: linger, logf: logf, entries: map[string]*entry{}}
}

// Join returns a feed of the named cluster's picture, dialling it and
// starting its watcher if no session is on it; ctx bounds the dial.
// Close the feed when done.
func (c *Clusters) Join(ctx context.Context, name string) (*Feed, error) {
	for {
		e, release, err := c.acquire(ctx, name)
		if err != nil {
			return nil, err
		}
		f := e.hub.join()
		if f == nil {
			// The watcher ended by itself: start again.
			release()
			c.forget(name, e)
			continue
		}
		f.leave = func(*Feed) { release() }
		return f, nil
	}
}

// acquire counts one more user of the named cluster's hub, starting it
// if needed, and returns the entry with the function that counts the
// user gone.
func (c *Clusters) acquire(ctx context.Context, name string) (*entry, func(), error) {
	c.mu.Lock()
	if c.stopping {
		c.mu.Unlock()
		return nil, nil, errStopping
	}
	e := c.entries[name]
	starting := e == nil
	if starting {
		e = &entry{ready: make(chan struct{})}
		c.entries[name] = e
	}
	e.feeds++
	if e.linger != nil {
		e.linger.Stop()
		e.linger = nil
	}
	c.mu.Unlock()
	if starting {
		c.start(ctx, name, e)
	}
	var once sync.Once
	release := func() { once.Do(func() { c.release(name, e) }) }
	select {
	case <-e.ready:
	case <-ctx.Done():
		release()
		return nil, nil, ctx.Err()
	}
	if e.err != nil {
		release()
		return nil, nil, e.err
	}
	return e, release, nil
}

// start dials the cluster and starts its hub, or records why not.
func (c *Clusters) start(ctx context.Context, name string, e *entry) {
	defer close(e.ready)
	// The dial is everyone's who waits for it: the first one leaving
	// does not end it (the dialer bounds it with its own timeout).
	cl, err := c.dial(context.WithoutCancel(ctx), name)
	if err != nil {
		c.mu.Lock()
		e.err = fmt.Errorf("context %s: %w", name, err)
		if c.entries[name] == e {
			delete(c.entries, name)
		}
		c.mu.Unlock()
		return
	}
	h := startHub(name, cl)
	c.log("watching %s", Label(name))
	c.mu.Lock()
	defer c.mu.Unlock()
	e.hub = h
	// Everyone who waited for the dial may have given up meanwhile.
	c.armLinger(name, e)
}

// forget drops e from the registry, if it is still there.
func (c *Clusters) forget(name string, e *entry) {
	c.mu.Lock()
	if c.entries[name] == e {
		delete(c.entries, name)
	}
	c.mu.Unlock()
}

// release counts one feed of e gone, and arms the hub's stop when it was
// the last.
func (c *Clusters) release(name string, e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.feeds--
	c.armLinger(name, e)
}

// armLinger stops e's hub c.linger from now if it has no feed then. The
// caller holds c.mu.
func (c *Clusters) armLinger(name string, e *entry) {
	if e.feeds > 0 || e.hub == nil || c.stopping || e.linger != nil {
		return
	}
	e.linger = time.AfterFunc(c.linger, func() {
		c.mu.Lock()
		if e.feeds > 0 || c.entries[name] != e {
			c.mu.Unlock()
			return
		}
		delete(c.entries, name)
		c.mu.Unlock()
		e.hub.stop()
		c.log("stopped watching %s: no session for %s", Label(name), c.linger)
	})
}

// Running reports the clusters whose watcher runs, for the log and tests.
func (c *Clusters) Running() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for n, e := range c.entries {
		if e.hub != nil {
			names = append(names, n)
		}
	}
	return names
}

func (c *Clusters) log(format string, args ...any) {
	if c.logf != nil {
		c.logf(format, args...)
	}
}

// Label names a cluster in messages: its context, or "the cluster" for
// the one given by address.
func Label(name string) string {
	if name == "" {
		return "the cluster"
	}
	return "context " + name
}

// IsRunning reports whether the named cluster's watcher runs: a session
// joining it now finds its picture without a dial.
func (c *Clusters) IsRunning(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[name]
	return e != nil && e.hub != nil
}

// Close stops every hub at once; sessions must have ended first.
func (c *Clusters) Close() {
	c.mu.Lock()
	c.stopping = true
	entries := c.entries
	c.entries = map[string]*entry{}
	c.mu.Unlock()
	for _, e := range entries {
		<-e.ready
		c.mu.Lock()
		h, t := e.hub, e.linger
		c.mu.Unlock()
		if t != nil {
			t.Stop()
		}
		if h != nil {
			h.stop()
		}
	}
}
