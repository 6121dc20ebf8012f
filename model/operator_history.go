package model

import (
	"cmp"
	"slices"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// maxPendingActions bounds the operator's deletes remembered until their
// node's end is logged: one whose lock is not watched never is.
const maxPendingActions = 1000

// maxOperated is how many of the operators' latest actions a State keeps
// (Operated).
const maxOperated = 64

// Operations is what the operators did: the latest actions that went
// through, and the contenders they force-released, followed until their
// clients can no longer believe they hold or wait.
type Operations struct {
	// Operated are the latest of the operators' actions that went through
	// (force-release, revoke, fence), oldest first, and OperatedN how
	// many were ever taken in: a reader that remembers OperatedN finds
	// the new ones with OperatedSince.
	Operated  []lockcore.Action
	OperatedN int
	// Forced are the contenders the operator force-released whose clients
	// may still believe they hold or wait, oldest first (see Forced).
	// Replaced, never changed in place.
	Forced []Forced

	// actions are the operator's deletes whose node was still shown when
	// they were told (EventAction), by contender, until the node's end is
	// logged.
	actions map[contenderKey]*lockcore.Action
}

// noteOperated keeps a, among the latest actions that went through.
func (o *Operations) noteOperated(a lockcore.Action) {
	o.OperatedN++
	if len(o.Operated) >= maxOperated {
		// A new array: snapshots share the old one.
		o.Operated = slices.Clone(o.Operated[len(o.Operated)-maxOperated/2:])
	}
	o.Operated = append(o.Operated, a)
}

// OperatedSince are the actions that went through after the first n of
// OperatedN, as far as Operated still holds them.
func (o *Operations) OperatedSince(n int) []lockcore.Action {
	added := min(o.OperatedN-n, len(o.Operated))
	if added <= 0 {
		return nil
	}
	return o.Operated[len(o.Operated)-added:]
}

// recordAction takes in an operator's action (EventAction): a delete that
// went through ends its contender's hold or wait by the operator's hand,
// and leaves its client not told (Forced). The watcher may have reported
// the node gone before the action was told, or may report it after.
func (s *State) recordAction(ev zkwatch.Event) {
	a := ev.Action
	if a != nil && a.Kind == lockcore.ActionRelease {
		s.recordOwnRelease(a)
		return
	}
	if a != nil && a.Done() {
		s.noteOperated(*a)
	}
	if a == nil || !a.Kind.Deletes() || !a.Done() {
		return
	}
	s.noteForced(a)
	k := contenderKey{path: a.Node, token: a.Token}
	// An action ends what was shown moments before: the log's latest
	// entries are searched, newest first.
	for i := len(s.History) - 1; i >= 0 && i >= len(s.History)-maxPendingActions; i-- {
		h := &s.History[i]
		if (h.Change == Released || h.Change == Left) && h.Token == a.Token && h.IsNode(a.Node) {
			h.EndedBy, h.Action = EndedByOperator, a
			return
		}
	}
	if len(s.actions) >= maxPendingActions {
		clear(s.actions)
	}
	s.actions[k] = a
}

// recordDisconnects logs each holder whose session a members' answer
// (EventServers) found connected nowhere, when it was not so before.
func (s *State) recordDisconnects(ev zkwatch.Event, before map[int64]lockcore.Link) {
	if s.LastSync.IsZero() {
		return
	}
	var found []HistoryEntry
	for _, l := range s.Locks {
		for _, p := range l.Participants {
			if p.Role != lockcore.RoleHolder {
				continue
			}
			was, k := before[p.Session], s.Links.Of(p.Session)
			switch {
			case k.State == lockcore.LinkDisconnected && was.State != lockcore.LinkDisconnected:
				found = append(found, s.entry(ev.At, Disconnected, l.Path, p, false))
			case k.Silent.For > 0 && was.Silent.For == 0:
				e := s.entry(ev.At, Silent, l.Path, p, false)
				e.Silent = k.Silent
				found = append(found, e)
			case k.State == lockcore.LinkConnected && k.Silent.For == 0 && was.Silent.For > 0:
				found = append(found, s.entry(ev.At, Woke, l.Path, p, false))
			}
		}
	}
	slices.SortFunc(found, func(a, b HistoryEntry) int {
		return cmp.Or(strings.Compare(a.Lock, b.Lock), strings.Compare(a.Node, b.Node))
	})
	for _, e := range found {
		s.add(e)
	}
}
