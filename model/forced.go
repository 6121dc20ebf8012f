package model

import (
	"maps"
	"path"
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Forced is a contender the operator force-released: its session was not
// told, so while it stays connected its client may go on as if its node
// were there (a holder as if it held). It is followed until its client
// lets go: its session is gone from a complete members' answer asked for
// after the force-release, or it has a node in the lock that it did not
// have when it was force-released (it queued again).
//
// Maybe marks a holder whose node was deleted while its session lived,
// by no action of this zklocks' operator (EndedByRelease): its client
// released, or another client (another zklocks, a script) force-released
// it, and ZooKeeper does not say which; its session, still talking, may
// believe it holds. It is followed as a force-release is.
type Forced struct {
	// Lock is the lock's path, Node the path of the node deleted.
	Lock, Node string
	Session    int64
	// Role is what the contender was as it was force-released.
	Role lockcore.Role
	// Action is what the operator did; nil when Maybe.
	Action *lockcore.Action
	Maybe  bool
	// When is when it was force-released (the action's time), or, when
	// Maybe, when its node was seen to go.
	When time.Time
	// had are the session's nodes in the lock as it was force-released
	// (a session may own several), by path, with their tokens (0: not
	// known): a node not among them means it queued again, and so does
	// one at the same path with another token, made again since (a
	// single-node lock's holder takes the lock by the same path each
	// time).
	had map[string]int64
}

// At is when it was force-released, or its node seen to go (Maybe).
func (f Forced) At() time.Time { return f.When }

// maxForced bounds the force-released contenders followed, the oldest
// dropped first.
const maxForced = 100

// noteForced follows the contender of a force-release that went through.
// One its lock never showed is not followed: what it was is not known.
// State.Forced is replaced, never changed in place, so that clones share it.
func (s *State) noteForced(a *lockcore.Action) {
	if a.Kind != lockcore.ActionForceRelease || a.Owner == 0 {
		return
	}
	f, ok := s.forcedOf(a)
	if !ok {
		return
	}
	f.When = a.At
	had := nodesOf(s.Locks[f.Lock], f.Session)
	had[f.Node] = a.Token
	s.follow(f, had)
}

// noteMaybeForced follows the holder of an ending settled as
// EndedByRelease whose session the answer asked for after its node went
// found talking (zkwatch.ClientInfo.Link): released by its client, or
// force-released by another, its client may believe it holds. One whose
// member's answers do not tell whether it talks is not followed.
func (s *State) noteMaybeForced(o openEnd, ci zkwatch.ClientInfo) {
	if !o.holder || o.session == 0 || !ci.Link().Talking {
		return
	}
	// A copy: the open ending's map may be shared with a clone's.
	had := maps.Clone(o.had)
	if had == nil {
		had = nodesOf(s.Locks[o.lock], o.session)
	}
	had[o.path] = o.token
	s.follow(Forced{Lock: o.lock, Node: o.path, Session: o.session, Role: lockcore.RoleHolder, Maybe: true, When: o.at}, had)
}

// nodesOf is session's nodes in l (nil: none), by path, with their
// tokens.
func nodesOf(l *lockcore.Lock, session int64) map[string]int64 {
	out := map[string]int64{}
	if l != nil {
		for _, q := range l.Participants {
			if q.Session == session {
				out[q.Path] = q.Token
			}
		}
	}
	return out
}

// follow adds f to the contenders followed, with had, the session's nodes
// in its lock as it was force-released: one not among them, later, means
// it queued again. One that has queued again already, before the ending
// was settled, is not followed: its client knows.
func (s *State) follow(f Forced, had map[string]int64) {
	f.had = had
	if s.queuedAgainAfterForce(f) {
		return
	}
	// One a session: its latest force-release.
	kept := slices.DeleteFunc(slices.Clone(s.Forced), func(o Forced) bool { return o.Session == f.Session })
	s.Forced = append(kept, f)
	if len(s.Forced) > maxForced {
		s.Forced = s.Forced[len(s.Forced)-maxForced:]
	}
}

// forcedOf is the contender a acted on, as its lock shows it or, when its
// node's end came first, as the event log logged that end.
func (s *State) forcedOf(a *lockcore.Action) (Forced, bool) {
	f := Forced{Node: a.Node, Session: a.Owner, Action: a}
	// From the node itself: a single-node lock's holder is its lock's node.
	for dir := a.Node; ; dir = path.Dir(dir) {
		if l := s.Locks[dir]; l != nil {
			for _, p := range l.Participants {
				if p.Path == a.Node && (a.Token == 0 || p.Token == a.Token) {
					f.Lock, f.Role = dir, p.Role
					return f, true
				}
			}
		}
		if dir == "/" || dir == "." {
			break
		}
	}
	for i := len(s.History) - 1; i >= 0 && i >= len(s.History)-maxPendingActions; i-- {
		h := &s.History[i]
		if (h.Change == Released || h.Change == Left) && h.Token == a.Token && h.IsNode(a.Node) {
			f.Lock, f.Role = h.Lock, lockcore.RoleWaiter
			if h.Change == Released {
				f.Role = lockcore.RoleHolder
			}
			return f, true
		}
	}
	return f, false
}

// pruneForced stops following the force-released contenders whose
// clients let go: after a members' answer (EventServers) or a reading of
// their lock (EventLock).
func (s *State) pruneForced(ev zkwatch.Event) {
	if len(s.Forced) == 0 {
		return
	}
	gone := func(f Forced) bool {
		switch ev.Kind {
		case zkwatch.EventServers:
			// Only an answer asked for after the force-release says its
			// session is gone: one asked before may predate the session
			// itself, and the watcher hands the last answer on again
			// until the next one comes.
			asked := s.clientsAsked
			if asked.IsZero() {
				asked = ev.At
			}
			_, listed := s.Clients[f.Session]
			return s.ClientsComplete && !listed && asked.After(f.At())
		case zkwatch.EventLock:
			return ev.Path == f.Lock && s.queuedAgainAfterForce(f)
		}
		return false
	}
	if slices.ContainsFunc(s.Forced, gone) {
		s.Forced = slices.DeleteFunc(slices.Clone(s.Forced), gone)
	}
}

// queuedAgainAfterForce reports whether f's session has a node in its
// lock it did not have when force-released: at another path, or at the
// same path made again (another token). Or, for a single-node lock, whose
// waiters have no node, whether its session waits for the node again: it
// watches the node another session has made since, by a watch table read
// after that (so after the delete, which removed any watch set before).
func (s *State) queuedAgainAfterForce(f Forced) bool {
	l := s.Locks[f.Lock]
	if l == nil {
		return false
	}
	remade := false
	for _, q := range l.Participants {
		token, had := f.had[q.Path]
		newer := had && token != 0 && q.Token != 0 && q.Token != token
		if q.Session == f.Session && (!had || newer) {
			return true
		}
		remade = remade || (q.Path == f.Node && newer)
	}
	return remade && l.WatchesSource == lockcore.WatchesFromServer && l.WatchesGap == "" && slices.Contains(l.HiddenWaiters, f.Session)
}
