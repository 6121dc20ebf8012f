package lockclient

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// owned names a node our session created: its path, the session that owns
// it, and its czxid when known (0 when the create's reply was lost).
type owned struct {
	path    string
	session int64
	czxid   int64
}

// Guaranteed deletes, after Curator's: a node of ours that must go (a
// released or abandoned contender, an orphan of a lost create reply) is
// deleted again and again until the delete succeeds, the node is gone or
// no longer ours, or our session has ended (its ephemerals go with it).
// While the session lives, a node left behind would head its queue with
// nobody to release it.

// giveUpDisconnected is how long the background deleter keeps trying while
// the connection never gets a session back. go-zookeeper does not say when
// a connection was closed (requests then fail as after a drop); a closed
// connection's session is closed or expires on the server, taking our
// nodes with it, so stopping then leaves nothing behind.
const giveUpDisconnected = 2 * time.Minute

// maxRetryPause caps the background deleter's pause between attempts.
const maxRetryPause = time.Second

// forget deletes n in the background, as work of c's Client: for cleanup
// on a path that has already failed, where the caller does not wait.
func forget(c clientConn, n owned) {
	if n.path == "" {
		return
	}
	c.owner.goBackground(func() { _ = deleteUntilDone(c, n) })
}

// deleteUntilDone tries to delete n until an attempt can tell, backing
// off while the connection is down. It stops when c's Client is closed.
func deleteUntilDone(c clientConn, n owned) error {
	wait := retryPause
	var disconnectedSince time.Time
	for {
		done, err, stopped := attemptDelete(c, n)
		if stopped {
			return fmt.Errorf("%s: gave up deleting: %w", n.path, ErrClosed)
		}
		if done {
			return err
		}
		switch {
		case c.State() == zk.StateHasSession:
			disconnectedSince = time.Time{}
		case disconnectedSince.IsZero():
			disconnectedSince = time.Now()
		case time.Since(disconnectedSince) > giveUpDisconnected:
			return fmt.Errorf("%s: gave up deleting after %s without a session: %w", n.path, giveUpDisconnected, err)
		}
		if !c.owner.sleep(wait) {
			return fmt.Errorf("%s: gave up deleting: %w", n.path, ErrClosed)
		}
		if wait *= 2; wait > maxRetryPause {
			wait = maxRetryPause
		}
	}
}

// attemptDelete is deleteOnce, given up (stopped) when c's Client is
// closed first: go-zookeeper holds a request made while it has no
// connection until it gets one, which may never come, and Close must not
// wait for that. The request itself ends when the connection is closed.
func attemptDelete(c clientConn, n owned) (done bool, err error, stopped bool) {
	type result struct {
		done bool
		err  error
	}
	answer := make(chan result, 1)
	go func() {
		done, err := deleteOnce(c, n)
		answer <- result{done, err}
	}()
	select {
	case r := <-answer:
		return r.done, r.err, false
	case <-c.owner.stop:
		return false, nil, true
	}
}

// deleteOnce makes one attempt: done is false only when the attempt could
// not tell (the connection dropped, or the node changed under it) and a
// later one may succeed.
func deleteOnce(c ZK, n owned) (done bool, err error) {
	if s := c.SessionID(); s != n.session && s != 0 {
		return true, nil // our session ended, and its ephemerals with it
	}
	_, stat, err := c.Get(n.path)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return true, nil
	case errors.Is(err, zk.ErrSessionExpired):
		return true, nil
	case retryable(err):
		return false, err
	case err != nil:
		return true, fmt.Errorf("%s: %w", n.path, err)
	case stat.EphemeralOwner != n.session || (n.czxid != 0 && stat.Czxid != n.czxid):
		return true, fmt.Errorf("%w: %s is no longer the node we created", ErrNotHolder, n.path)
	}
	err = c.Delete(n.path, stat.Version)
	switch {
	case err == nil, errors.Is(err, zk.ErrNoNode), errors.Is(err, zk.ErrSessionExpired):
		return true, nil
	case retryable(err), errors.Is(err, zk.ErrBadVersion):
		// A revoke request may have changed the version: read again.
		return false, err
	}
	return true, fmt.Errorf("%s: %w", n.path, err)
}

// sweepOrphans deletes, in the background, every child of dir other than
// keep whose name starts with prefix and that our session owns: nodes of
// creates whose replies were lost and that landed after we looked for them.
// Only names with a fresh GUID are swept: a session-tagged or host-tagged
// prefix may be shared with another acquisition of ours.
func sweepOrphans(c clientConn, dir, prefix, keep string, session int64, names []string) {
	for _, name := range names {
		if name == keep || !strings.HasPrefix(name, prefix) {
			continue
		}
		forget(c, owned{path: dir + "/" + name, session: session})
	}
}
