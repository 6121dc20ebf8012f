package bigtree

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// sessionTimeout is what the tree's sessions ask for; a server grants at
// most its maxSessionTimeout (10 s on the test kit's servers). It is left
// as the servers have it: the UI reads the contender sessions' timeouts
// and pings, and a benchmark measures it on a tree like production's.
const sessionTimeout = 30 * time.Second

// reconnectWait bounds how long a request cut off by a lost connection
// waits for a session. An ensemble on a loaded machine can lose its
// quorum (a member starved past its sync limit) and serve no client
// until it has elected a leader again, which has taken over a minute;
// past the session timeout the session has expired, and go-zookeeper
// opens another, which a persistent node's create takes as it comes.
const reconnectWait = 10 * time.Minute

// errSessionLost is returned when a session came back as another one: the
// old one expired, and its ephemeral nodes and watches are gone.
var errSessionLost = errors.New("bigtree: the session expired")

// anySession, as the session a request needs, accepts any session: a
// persistent node's create does not depend on the session that makes it.
const anySession = 0

// resume makes op until it is not cut off by a lost connection (or held
// back, unsent, while go-zookeeper found no server), each time once c has
// its session again. A reconnect keeps the session, and with it
// every node and watch made before; a session that came back as another
// one (sid, unless anySession) is errSessionLost.
func resume(ctx context.Context, c *zk.Conn, sid int64, op func() error) error {
	for {
		err := op()
		if !connectionLost(err) {
			return err
		}
		if werr := waitSession(ctx, c, sid); werr != nil {
			return fmt.Errorf("%w (after %w)", werr, err)
		}
	}
}

// connectionLost reports whether err is a request's lost with its
// connection: cut off (go-zookeeper's, or the socket's own error when the
// write failed), or never sent.
func connectionLost(err error) bool {
	var op *net.OpError
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrSessionExpired) ||
		errors.Is(err, zk.ErrNoServer) || errors.As(err, &op)
}

// waitSession waits until c has its session again after a lost connection.
func waitSession(ctx context.Context, c *zk.Conn, sid int64) error {
	deadline := time.Now().Add(reconnectWait)
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.State() == zk.StateHasSession {
			if sid != anySession && c.SessionID() != sid {
				return errSessionLost
			}
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("bigtree: no session within %v", reconnectWait)
}

// synced makes c's member as up to date as the leader for path: a request
// cut off by a lost connection may have been applied, and a check of
// whether it was must not read a member that has not seen it yet.
func synced(ctx context.Context, c *zk.Conn, sid int64, path string) error {
	return resume(ctx, c, sid, func() error {
		_, err := c.Sync(path)
		return err
	})
}

// protectedMade reports whether the nodes named parents[i]/prefixes[i]<seq>
// were made, by the first parent's children, and if so fills created
// with their paths.
func protectedMade(ctx context.Context, c *zk.Conn, sid int64, parents, prefixes, created []string) (bool, error) {
	if err := synced(ctx, c, sid, parents[0]); err != nil {
		return false, err
	}
	for i, p := range parents {
		var children []string
		if err := resume(ctx, c, sid, func() (err error) {
			children, _, err = c.Children(p)
			return err
		}); err != nil {
			return false, err
		}
		j := slices.IndexFunc(children, func(n string) bool { return strings.HasPrefix(n, prefixes[i]) })
		if j < 0 {
			return false, nil // a multi makes all of its nodes or none
		}
		created[i] = p + "/" + children[j]
	}
	return true, nil
}
