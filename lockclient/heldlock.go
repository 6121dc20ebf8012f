package lockclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockcore"
)

// Held is a lock we hold. It watches its own node: if the node is deleted
// by someone else (a force-release) or our session expires, the lock is
// lost, Lost is closed, and Err says why. Like Curator's standard policy,
// it also counts the lock lost as soon as the connection drops: while
// disconnected the session may expire, and the next waiter enter, before
// this client could hear of it.
type Held struct {
	// Node is our contender's absolute path.
	Node string
	// Token is the fencing token: our node's czxid, larger than any earlier
	// holder's. Pass it to systems that can reject stale holders.
	Token   int64
	Session int64
	Recipe  lockcore.Recipe
	Mode    lockcore.Mode
	// Acquired is when the lock was granted (this machine's clock).
	Acquired time.Time

	c        clientConn
	q        queued
	lost     chan struct{}
	revoke   chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	err      error
	lostAt   time.Time
	version  int32 // our node's data version, as last watched
	released bool
	watcher  sync.WaitGroup
	// onRelease runs once Release is done (see OnRelease).
	onRelease func()
	// deletedOwn: Release's delete of our node was applied, by the
	// server's reply to it (see DeletedOwn).
	deletedOwn atomic.Bool
}

// ownWatch is the first watch on our own node, set as soon as it exists.
type ownWatch struct {
	stat zk.Stat
	ch   <-chan zk.Event
}

// watchOwn sets the watch on our node that will tell the holder it lost
// the lock; its stat carries the fencing token. It retries while the
// connection is down, until ctx ends.
func watchOwn(ctx context.Context, c ZK, node string) (ownWatch, error) {
	for {
		exists, stat, ch, err := c.ExistsW(node)
		switch {
		case retryable(err):
			if err := pause(ctx); err != nil {
				return ownWatch{}, err
			}
			continue
		case err != nil:
			return ownWatch{}, fmt.Errorf("%s: %w", node, err)
		case !exists:
			return ownWatch{}, fmt.Errorf("%w: our node %s vanished as it was created", ErrLockLost, node)
		}
		return ownWatch{stat: *stat, ch: ch}, nil
	}
}

// rearm handles an event on our node while we wait: its deletion or our
// session's end loses the acquisition; anything else (a data change) sets
// the watch again.
func (o *ownWatch) rearm(ctx context.Context, c ZK, node string, ev zk.Event) error {
	switch {
	case ev.Type == zk.EventNodeDeleted:
		return fmt.Errorf("%w: our node %s was deleted while waiting", ErrLockLost, node)
	case ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired):
		return fmt.Errorf("%w: session expired while waiting", ErrLockLost)
	}
	fresh, err := watchOwn(ctx, c, node)
	if err != nil {
		return err
	}
	*o = fresh
	return nil
}

// hold turns our granted node into a Held.
func hold(c clientConn, q queued, recipe lockcore.Recipe, mode lockcore.Mode, own ownWatch) *Held {
	h := &Held{Node: q.path, Token: own.stat.Czxid, Session: own.stat.EphemeralOwner, Recipe: recipe, Mode: mode,
		Acquired: time.Now(), c: c, q: q, version: own.stat.Version,
		lost: make(chan struct{}), revoke: make(chan struct{}, 1), done: make(chan struct{})}
	h.watcher.Add(2)
	go h.watch(own.ch)
	go h.watchConnection()
	return h
}

// connectionPoll is how often a holder checks that it is still connected
// when its connection cannot tell it (see SessionEvents). Servers expire a
// session no sooner than its timeout (seconds), and go-zookeeper notices a
// silent server after two thirds of it, so a holder learns of a drop well
// before anyone else can be granted the lock.
const connectionPoll = 20 * time.Millisecond

// watchConnection counts the lock lost as soon as the session is not
// connected: told by the connection's session events when it relays them
// (SessionEvents), else by polling its state.
func (h *Held) watchConnection() {
	defer h.watcher.Done()
	wake := make(chan struct{}, 1)
	if se, ok := h.c.ZK.(SessionEvents); ok {
		stop := se.OnState(func(zk.State) {
			select {
			case wake <- struct{}{}:
			default:
			}
		})
		defer stop()
		// A drop before we subscribed sent its event to nobody: look once.
		select {
		case wake <- struct{}{}:
		default:
		}
	} else {
		t := time.NewTicker(connectionPoll)
		defer t.Stop()
		go func() {
			for {
				select {
				case <-t.C:
					select {
					case wake <- struct{}{}:
					default:
					}
				case <-h.done:
					return
				}
			}
		}()
	}
	for {
		select {
		case <-h.done:
			return
		case <-h.lost:
			return
		case <-wake:
			if st := h.c.State(); st != zk.StateHasSession {
				h.lose(fmt.Errorf("%w: the connection dropped (%s); the session may expire and the lock pass on (token %d)", ErrLockLost, st, h.Token))
				return
			}
		}
	}
}

// Lost is closed when the lock is lost.
func (h *Held) Lost() <-chan struct{} { return h.lost }

// Revoked receives when someone asks us, Curator-style, to release.
func (h *Held) Revoked() <-chan struct{} { return h.revoke }

// Err says why the lock was lost, wrapping ErrLockLost; nil while held.
func (h *Held) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

func (h *Held) watch(ch <-chan zk.Event) {
	defer h.watcher.Done()
	for {
		select {
		case <-h.done:
			return
		case ev := <-ch:
			switch {
			case ev.Type == zk.EventNodeDeleted:
				h.lose(fmt.Errorf("%w: %s was deleted by another session (token %d)", ErrLockLost, h.Node, h.Token))
				return
			case ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired):
				h.lose(fmt.Errorf("%w: session 0x%x expired (token %d)", ErrLockLost, uint64(h.Session), h.Token))
				return
			case ev.Type == zk.EventNotWatching:
				h.lose(fmt.Errorf("%w: the connection was closed (token %d)", ErrLockLost, h.Token))
				return
			}
		}
		var exists bool
		var stat *zk.Stat
		var err error
		for {
			exists, stat, ch, err = h.c.ExistsW(h.Node)
			if err == nil || !retryable(err) {
				break
			}
			select {
			case <-h.done:
				return
			case <-time.After(retryPause):
			}
		}
		switch {
		case err != nil:
			h.lose(fmt.Errorf("%w: %s: %v (token %d)", ErrLockLost, h.Node, err, h.Token))
			return
		case !exists:
			h.lose(fmt.Errorf("%w: %s was deleted by another session (token %d)", ErrLockLost, h.Node, h.Token))
			return
		}
		h.mu.Lock()
		h.version = stat.Version
		h.mu.Unlock()
		if data, _, err := h.c.Get(h.Node); err == nil && string(data) == lockcore.RevokeRequest {
			select {
			case h.revoke <- struct{}{}:
			default:
			}
		}
	}
}

func (h *Held) lose(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released || h.err != nil {
		return
	}
	h.err, h.lostAt = err, time.Now()
	close(h.lost)
}

// LostAt is when this client learned the lock was lost (zero while held):
// what it did before then, it did believing it held.
func (h *Held) LostAt() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lostAt
}

// DeletedOwn reports whether Release deleted our node itself, as the
// server's reply to our delete confirmed: so the lock ended by its own
// hand. It is false before Release, when the node was gone already (lost,
// or force-released by another client), and when a delete's reply was
// lost and the node was only found gone after: who deleted it is then not
// known.
func (h *Held) DeletedOwn() bool { return h.deletedOwn.Load() }

// OnRelease has f called once, as Release returns: to end what the lock
// was taken on, such as a session of its own. It replaces an earlier f.
func (h *Held) OnRelease(f func()) {
	h.mu.Lock()
	h.onRelease = f
	h.mu.Unlock()
}

// Release deletes our node, and only ours: it checks that the node still
// belongs to our session and is the one we were granted. After a loss it
// still removes the node if it is ours (a dropped connection may have left
// the session, and so the node, alive), and returns the loss (ErrLockLost).
// When ctx ends before the delete is confirmed, Release returns ctx's error
// while the delete goes on in the background until the node is gone or our
// session ends: a node left behind would head its queue for as long as our
// session lives. Releasing twice is a no-op.
func (h *Held) Release(ctx context.Context) error {
	h.mu.Lock()
	if h.released {
		h.mu.Unlock()
		return nil
	}
	h.released = true
	lostErr, version, onRelease := h.err, h.version, h.onRelease
	h.mu.Unlock()
	if onRelease != nil {
		defer onRelease()
	}
	defer func() {
		close(h.done)
		// The watchers end at once unless a request of theirs waits for a
		// reconnect; then they end with it.
		stopped := make(chan struct{})
		go func() { h.watcher.Wait(); close(stopped) }()
		select {
		case <-stopped:
		case <-ctx.Done():
		}
	}()
	err := h.deleteOwn(ctx, version)
	h.q.sweepTwins(h.c)
	if lostErr != nil {
		return lostErr
	}
	return err
}

// deleteOwn deletes our node: first at the version last watched, in one
// request (our names carry a fresh GUID or our session id, so a node at our
// path with our version is ours; the host-tagged shape's names do not, so
// they always take the checked path), then, after any failure but
// ErrNoNode, checked and retried until it can tell. It waits until ctx
// ends, and the delete goes on in the background after that.
func (h *Held) deleteOwn(ctx context.Context, version int32) error {
	result := make(chan error, 1)
	del := func() {
		err := ErrNotHolder
		if h.Recipe != lockcore.RecipeHostRW {
			err = h.c.Delete(h.Node, version)
		}
		switch {
		case err == nil:
			h.deletedOwn.Store(true)
		case errors.Is(err, zk.ErrNoNode):
			err = fmt.Errorf("%w: %s was already gone (token %d)", ErrLockLost, h.Node, h.Token)
		default:
			// The delete may have been applied with its reply lost: a
			// node found gone now counts as released.
			err = deleteUntilDone(h.c, owned{path: h.Node, session: h.Session, czxid: h.Token})
		}
		result <- err
	}
	if !h.c.owner.goBackground(del) {
		// The Client is closed, and its connection about to be: one try.
		del()
	}
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: release goes on in the background: %w", h.Node, ctx.Err())
	}
}
