package cli

import (
	"context"
	"fmt"
	"path"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// roleLine says what the node acted on is in its lock, as the UI's dialog
// does: holding or waiting, its mode, its place in the queue and for how
// long, read from its lock at once. Its lock is the semaphore whose part
// its parent is (a kazoo semaphore's queue, Curator's leases/ or
// locks/), its parent (a queue), or the node itself (a single-node lock,
// whose holder is its node). czxid is the node's as shown: a node of the
// same path created since is not it.
func roleLine(ctx context.Context, conn *zkwatch.Conn, s settings, node string, czxid int64) string {
	lock := path.Dir(node)
	locks := []string{lock, node}
	if sem, ok := lockcore.SemaphorePart(lock); ok {
		locks = append([]string{sem}, locks...)
	}
	var parentErr error
	for _, at := range locks {
		readCtx, cancel := zkwatch.WithAnswerTimeout(ctx, s.timeout)
		t, err := conn.ReadTree(readCtx, at)
		cancel()
		if err != nil {
			if at == lock {
				parentErr = err
			}
			continue
		}
		l := lockcore.Analyze(t, nil, s.analysis(0))
		if line, ok := roleIn(l, at, node, czxid); ok {
			return line
		}
	}
	if parentErr != nil {
		return fmt.Sprintf("role     not known: its lock %s could not be read: %v", model.Printable(lock), parentErr)
	}
	return fmt.Sprintf("role     none: %s does not read as a contender of the lock %s, nor as a lock of one node", model.Printable(node), model.Printable(lock))
}

// roleIn is roleLine's line for the node in l, the lock at lock, when
// it is one of its contenders.
func roleIn(l lockcore.Lock, lock, node string, czxid int64) (string, bool) {
	for _, q := range l.Participants {
		if q.Path != node || q.Token != czxid {
			continue
		}
		age := model.Duration(q.Age)
		of := fmt.Sprintf("#%d of %d in %s (%s)", q.Position, len(l.Participants), model.Printable(lock), l.Recipe)
		if q.Role == lockcore.RoleHolder {
			return fmt.Sprintf("role     holding %s %s, %s", q.Mode, of, model.HoldText(q.Hold, age)), true
		}
		return fmt.Sprintf("role     waiting %s %s, for %s (server clock)", q.Mode, of, age), true
	}
	return "", false
}
