package ui

import (
	"path"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// Under zklocks serve, every session on a cluster is told what the other
// operators did: a force-release, revoke or fence changes the table
// silently otherwise, while the status line still says whatever it said
// before.

// tellOperated says in the status line, replacing what it said, the
// actions of other operators that next took in since prev.
func (a *App) tellOperated(prev, next *model.State) {
	for _, act := range next.OperatedSince(prev.OperatedN) {
		if a.mine(act) && act.ApprovedBy == nil {
			continue // the operator was told as it went
		}
		a.say(model.ActionSentence(act, positionIn(prev, act.Node)), false)
	}
}

// mine reports whether act was made through this UI's own actions' user
// and key.
func (a *App) mine(act lockcore.Action) bool {
	if a.opt.Actions == nil {
		return false
	}
	me := a.opt.Actions.Operator()
	return act.User == me.User && act.Key == me.Key && act.Host == me.Host
}

// positionIn is the contender's place in its lock's queue as s shows it,
// "#0" for the first; "" when s does not show it.
func positionIn(s *model.State, node string) string {
	l := s.Locks[path.Dir(node)]
	if l == nil {
		return ""
	}
	for _, q := range l.Participants {
		if q.Path == node {
			return "#" + itoa(q.Position)
		}
	}
	return ""
}
