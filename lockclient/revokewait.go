package lockclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"
)

// revokePoll is how often AwaitRelease reads the node.
const revokePoll = 50 * time.Millisecond

// AwaitRelease waits until the contender e names is gone (its holder
// released it, or anyone deleted it), for as long as ctx allows, after a
// revocation request (Revoke): the request is only a request, and a
// holder that did not make its lock revocable ignores it. It reads the
// node every 50 ms and sets no watch: a watch on a holder's node would
// outlive the wait (ZooKeeper drops a watch only when it fires or its
// session closes) and count, for every observer, as one more session
// waiting on it. It returns true once the node is gone, false when ctx
// ends first, and an error when a read fails other than by a dropped
// connection (which it retries).
func AwaitRelease(ctx context.Context, c ZK, e Expect) (bool, error) {
	t := time.NewTicker(revokePoll)
	defer t.Stop()
	for {
		_, stat, err := c.Get(e.Path)
		switch {
		case errors.Is(err, zk.ErrNoNode):
			return true, nil
		case err == nil && stat.Czxid != e.Czxid:
			return true, nil // gone, and another node made at its path since
		case err != nil && !retryable(err):
			return false, fmt.Errorf("%s: %w", e.Path, err)
		}
		select {
		case <-ctx.Done():
			return false, nil
		case <-t.C:
		}
	}
}
