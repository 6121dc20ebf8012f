package lockclient

import (
	"context"
	"sync"
	"time"
)

// Client is our lock client on one ZooKeeper connection. Its calls
// (Acquire, and Release on the locks it returns) may leave work running
// after they return: the guaranteed deletes of nodes of ours that must go
// (deleter.go), which go on until the node is gone, our session has ended,
// or the connection has had no session for two minutes. The Client owns
// that work: Wait waits for it, Close stops it.
//
// Close a Client when its connection closes (just after is best: requests
// on a closed connection fail at once, so Close does not wait on one),
// never while the connection is to live on: stopping the deletes is safe
// only because the session's end deletes our ephemeral nodes as well. A
// Client closed while its session lives may leave a node of ours at the
// head of a queue, with nobody to release it. A Client is safe for
// concurrent use.
type Client struct {
	zk   ZK
	stop chan struct{} // closed by Close
	mu   sync.Mutex
	done bool
	work sync.WaitGroup
}

// NewClient returns a Client on c.
func NewClient(c ZK) *Client { return &Client{zk: c, stop: make(chan struct{})} }

// Acquire joins the lock at spec.Path as a fair participant of its recipe
// and returns once it holds (see the package function Acquire). After
// Close it fails with ErrClosed.
func (c *Client) Acquire(ctx context.Context, spec Spec) (*Held, error) {
	if c.closed() {
		return nil, ErrClosed
	}
	return acquire(ctx, clientConn{ZK: c.zk, owner: c}, spec)
}

// Wait waits until the work the Client's calls left running has ended, or
// ctx ends (then it returns ctx's error and the work goes on).
func (c *Client) Wait(ctx context.Context) error {
	ended := make(chan struct{})
	go func() { c.work.Wait(); close(ended) }()
	select {
	case <-ended:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the work the Client's calls left running, waits until it
// has stopped, and makes later calls fail with ErrClosed; a Release after
// Close still tries to delete its node, once. Call it as the connection
// closes (see Client). Closing twice is a no-op.
func (c *Client) Close() error {
	c.mu.Lock()
	if !c.done {
		c.done = true
		close(c.stop)
	}
	c.mu.Unlock()
	c.work.Wait()
	return nil
}

func (c *Client) closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// goBackground runs f as the Client's background work, unless the Client
// is closed; it reports whether f was started.
func (c *Client) goBackground(f func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return false
	}
	c.work.Add(1)
	go func() {
		defer c.work.Done()
		f()
	}()
	return true
}

// sleep pauses background work for d; false means the Client was closed
// meanwhile and the work is to stop.
func (c *Client) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.stop:
		return false
	}
}

// clientConn is a connection with the Client that owns the work started
// on it.
type clientConn struct {
	ZK
	owner *Client
}
