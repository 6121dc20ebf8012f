package demo

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockclient"
)

// countingZK is one contender's session, as lockcore sees it, counting the
// wakeups it receives: NodeDeleted and NodeChildrenChanged notifications of
// its watches, except those about a node the session itself owns. Our Held
// watches its own node to notice a lost lock; the notification of its own
// release wakes no waiter, so it is not counted, nor is a contender woken
// by the fencing of its own orphan. NodeCreated is not counted either: it
// reaches the naive lock's waiters only through a stale exists watch
// nobody waits on. Every other notification is a waiter woken by someone
// else's release (or by a killed session's node going).
type countingZK struct {
	lockclient.ZK
	wakeups *atomic.Int64

	mu sync.Mutex
	// owned are nodes this session created and has not seen go.
	owned map[string]bool
	// armed counts this session's pending watches by path.
	armed map[string]int
	// deleted are owned nodes this session deleted while a watch on them
	// was pending: they stay owned until that watch fires.
	deleted map[string]bool
}

func newCountingZK(c lockclient.ZK, wakeups *atomic.Int64) *countingZK {
	return &countingZK{ZK: c, wakeups: wakeups, owned: map[string]bool{}, armed: map[string]int{}, deleted: map[string]bool{}}
}

// Create implements lockclient.ZK.
func (c *countingZK) Create(p string, data []byte, flags int32, acl []zk.ACL) (string, error) {
	created, err := c.ZK.Create(p, data, flags, acl)
	if err == nil {
		c.mu.Lock()
		c.owned[created] = true
		delete(c.deleted, created)
		c.mu.Unlock()
	}
	return created, err
}

// Delete implements lockclient.ZK.
func (c *countingZK) Delete(p string, version int32) error {
	err := c.ZK.Delete(p, version)
	if err == nil || errors.Is(err, zk.ErrNoNode) {
		c.mu.Lock()
		if c.armed[p] > 0 {
			// The notification of our own delete may still be on its way
			// to the watch: let it find the node ours.
			c.deleted[p] = true
		} else {
			delete(c.owned, p)
		}
		c.mu.Unlock()
	}
	return err
}

// ExistsW implements lockclient.ZK.
func (c *countingZK) ExistsW(p string) (bool, *zk.Stat, <-chan zk.Event, error) {
	ok, stat, ch, err := c.ZK.ExistsW(p)
	if err != nil {
		return ok, stat, ch, err
	}
	return ok, stat, c.relay(p, ch), nil
}

// ChildrenW implements lockclient.ZK.
func (c *countingZK) ChildrenW(p string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	names, stat, ch, err := c.ZK.ChildrenW(p)
	if err != nil {
		return names, stat, ch, err
	}
	return names, stat, c.relay(p, ch), nil
}

// relay passes a watch's one event on, counting it. p is the path as
// asked (events carry the server's path, which a chroot prefixes).
func (c *countingZK) relay(p string, in <-chan zk.Event) <-chan zk.Event {
	c.mu.Lock()
	c.armed[p]++
	c.mu.Unlock()
	out := make(chan zk.Event, 1)
	go func() {
		defer close(out)
		ev, ok := <-in
		c.observe(p, ev, ok)
		if ok {
			out <- ev
		}
	}()
	return out
}

func (c *countingZK) observe(p string, ev zk.Event, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	self := c.owned[p]
	if c.armed[p]--; c.armed[p] <= 0 {
		delete(c.armed, p)
	}
	gone := ok && ev.Type == zk.EventNodeDeleted
	if self && c.armed[p] == 0 && (gone || c.deleted[p]) {
		delete(c.owned, p)
		delete(c.deleted, p)
	}
	if ok && !self && (ev.Type == zk.EventNodeDeleted || ev.Type == zk.EventNodeChildrenChanged) {
		c.wakeups.Add(1)
	}
}

// locker is the contender's connection as lockcore takes it: with the
// wrapped connection's session events when it has them, so that a holder
// hears of a drop from the event rather than by polling.
func (c *countingZK) locker() lockclient.ZK {
	if se, ok := c.ZK.(lockclient.SessionEvents); ok {
		return countingSession{c, se}
	}
	return c
}

// countingSession is a countingZK that passes on session events.
type countingSession struct {
	*countingZK
	lockclient.SessionEvents
}
