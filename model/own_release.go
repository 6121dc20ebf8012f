package model

import (
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// OwnRelease is the action (lockcore.ActionRelease) that tells a release
// by zklocks' own lock client: session deleted its own node at node,
// made with token (its czxid), as the server's reply confirmed at at.
func OwnRelease(at time.Time, node string, token, session int64) lockcore.Action {
	return lockcore.Action{At: at, Kind: lockcore.ActionRelease, Node: node, Token: token, Owner: session, Session: session}
}

// recordOwnRelease takes in a release by zklocks' own lock client: the
// hold or wait its node ended was ended by its owner, which a watch alone
// reads as "released, or force-released by another client". The node's
// end may have been logged before the release is told, or may come
// after.
func (s *State) recordOwnRelease(a *lockcore.Action) {
	if !a.Done() {
		return
	}
	for i := len(s.History) - 1; i >= 0 && i >= len(s.History)-maxPendingActions; i-- {
		h := &s.History[i]
		if (h.Change == Released || h.Change == Left) && h.Token == a.Token && h.IsNode(a.Node) {
			if h.EndedBy == EndedByOperator {
				return // this zklocks' operator deleted it first
			}
			h.EndedBy, h.Action = EndedByOwner, nil
			s.unfollowOwn(a)
			return
		}
	}
	if len(s.actions) >= maxPendingActions {
		clear(s.actions)
	}
	s.actions[contenderKey{path: a.Node, token: a.Token}] = a
}

// unfollowOwn stops following a holder whose node a members' answer
// settled as deleted while its session lived before its own release was
// told: its client knows, having released.
func (s *State) unfollowOwn(a *lockcore.Action) {
	mine := func(f Forced) bool { return f.Maybe && f.Node == a.Node && f.Session == a.Owner }
	if slices.ContainsFunc(s.Forced, mine) {
		s.Forced = slices.DeleteFunc(slices.Clone(s.Forced), mine)
	}
}
