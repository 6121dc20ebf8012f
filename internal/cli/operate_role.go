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
// long, read from its parent (the lock) at once. czxid is the node's as
// shown: a node of the same path created since is not it.
func roleLine(ctx context.Context, conn *zkwatch.Conn, s settings, node string, czxid int64) string {
	lock := path.Dir(node)
	readCtx, cancel := zkwatch.WithAnswerTimeout(ctx, s.timeout)
	t, err := conn.ReadTree(readCtx, lock)
	cancel()
	if err != nil {
		return fmt.Sprintf("role     not known: its lock %s could not be read: %v", model.Printable(lock), err)
	}
	l := lockcore.Analyze(t, nil, s.analysis(0))
	for _, q := range l.Participants {
		if q.Path != node || q.Token != czxid {
			continue
		}
		age := model.Duration(q.Age)
		of := fmt.Sprintf("#%d of %d in %s (%s)", q.Position, len(l.Participants), model.Printable(lock), l.Recipe)
		if q.Role == lockcore.RoleHolder {
			return fmt.Sprintf("role     holding %s %s, %s", q.Mode, of, model.HoldText(q.Hold, age))
		}
		return fmt.Sprintf("role     waiting %s %s, for %s (server clock)", q.Mode, of, age)
	}
	return fmt.Sprintf("role     none: %s does not read as a contender of the lock %s", model.Printable(node), model.Printable(lock))
}
