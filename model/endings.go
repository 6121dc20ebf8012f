package model

import (
	"net/netip"
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// A release and a session's end look alike in the tree: the node goes.
// What tells them apart is whether the session outlived its node, which
// only the members' connection lists say, and only in an answer asked for
// after the node went: listed there, the session lived on (a release);
// missing from a complete answer, it ended with its node: an expiry when
// it was frozen (silent) or connected nowhere as its node went, neither of
// which can close a session; a close when it had talked too recently to
// have expired; otherwise either, and the log says which is not known.
// Until such an answer comes, whether it was a release is not known
// either, and the log says so.

// openEnd is an ending logged as not known yet, waiting for an answer.
type openEnd struct {
	seq     int   // the entry's number (State.Logged when it was added)
	session int64 // its session
	at      time.Time
	holder  bool
	// What was known of the session as its node went: its client's last
	// address, its timeout, and when its member last heard from it.
	addr    string
	timeout time.Duration
	heard   time.Time
	// silent: its member's last answer before the node went had heard
	// nothing from it past a third of its timeout: frozen, it could not
	// have closed its session itself.
	silent bool
	lock   string
	node   string
	path   string // the node's own
	token  int64
	// had, for a holder whose ending is not known yet, are its session's
	// nodes in the lock as the node went (the reading before), by path
	// with their tokens: a node not among them, later, was made after.
	had map[string]int64
}

// maxOpenEnds bounds the endings waiting for an answer: without cons
// from any member, none is ever settled.
const maxOpenEnds = 1000

// Untold is a holder whose hold ended with its session (an expiry) while
// its client may still run: ZooKeeper tells a client its session expired
// only once it reconnects, so until then it may go on as if it held. A
// downstream store that checks fencing tokens refuses its writes.
type Untold struct {
	Lock, Node string
	Session    int64
	// Token is its fencing token (the node's czxid); At is when its node
	// was seen to go.
	Token int64
	At    time.Time
	// Client is its client's address as a member last listed it; empty
	// when none ever did.
	Client string
}

// maxUntold bounds the untold holders kept, the oldest dropped first.
const maxUntold = 100

// noteEnd keeps an ending not known yet, or an expiry's untold holder;
// prev is the lock's reading that still showed p.
func (s *State) noteEnd(e HistoryEntry, p lockcore.Participant, prev *lockcore.Lock) {
	t := s.tracks[p.Session]
	o := openEnd{seq: s.Logged, session: p.Session, at: e.At, holder: p.Role == lockcore.RoleHolder,
		lock: e.Lock, node: e.Node, path: p.Path, token: p.Token}
	if t != nil {
		o.addr, o.timeout, o.heard = t.addr, t.timeout, t.heard
	}
	o.silent = s.Link(p.Session).Silent.For > 0
	switch e.EndedBy {
	case EndedByUnknown:
		if o.holder && o.session != 0 {
			o.had = nodesOf(prev, o.session)
		}
		s.openEnds = append(s.openEnds, o)
		if len(s.openEnds) > maxOpenEnds {
			s.openEnds = slices.Clone(s.openEnds[len(s.openEnds)-maxOpenEnds:])
		}
	case EndedByExpiry:
		s.expired(o)
	}
}

// expired counts an expiry, and keeps a holder's as untold.
func (g *EventLog) expired(o openEnd) {
	g.Expiries++
	if !o.holder {
		return
	}
	g.Untold = append(slices.Clone(g.Untold), Untold{Lock: o.lock, Node: o.node, Session: o.session, Token: o.token, At: o.at, Client: o.addr})
	if len(g.Untold) > maxUntold {
		g.Untold = g.Untold[len(g.Untold)-maxUntold:]
	}
}

// settleEnds settles the endings not known yet that ev (EventServers), asked
// for after their nodes went, can tell, and forgets the untold holders
// whose clients are seen again.
func (s *State) settleEnds(ev zkwatch.Event) {
	asked := ev.ClientsAsked
	if asked.IsZero() {
		asked = ev.At
	}
	kept := s.openEnds[:0:0]
	for _, o := range s.openEnds {
		_, listed := ev.Clients[o.session]
		var by Ender
		switch {
		case !asked.After(o.at):
			// Asked before the node went: says nothing of after.
		case listed:
			by = EndedByRelease
		case !ev.ClientsComplete:
		case heardTooRecently(o.heard, o.timeout, o.at):
			// Too recently heard to have expired, silent or not.
			by = EndedByClose
		case o.silent:
			by = EndedByExpiry
		default:
			by = EndedBySessionEnd
		}
		if by == "" {
			kept = append(kept, o)
			continue
		}
		if i := len(s.History) - (s.Logged - o.seq) - 1; i >= 0 && i < len(s.History) && s.History[i].Session == o.session {
			if s.History[i].EndedBy != EndedByUnknown {
				continue // told since, by the operator's own action
			}
			s.History[i].EndedBy = by
		}
		switch by {
		case EndedByExpiry:
			s.expired(o)
		case EndedByRelease:
			s.noteMaybeForced(o, ev.Clients[o.session])
		}
	}
	s.openEnds = kept
	s.forgetTold(ev)
}

// forgetTold forgets the untold holders whose clients are seen to know:
// a session from the same host queued on the lock again after the
// expiry. A host shared by several clients makes that a guess, which is
// said where the holder is shown. A host with no connection left says
// nothing: an expired session's connection is closed by its member, and
// a frozen client, when it wakes, connects again.
func (s *State) forgetTold(ev zkwatch.Event) {
	if len(s.Untold) == 0 {
		return
	}
	kept := s.Untold[:0:0]
	for _, u := range s.Untold {
		if host := hostOf(u.Client); host.IsValid() && s.queuedAgain(u, host, ev.Clients) {
			continue
		}
		kept = append(kept, u)
	}
	if len(kept) != len(s.Untold) {
		s.Untold = kept
	}
}

// queuedAgain reports whether another session from host has a node in
// u's lock made after u's ended.
func (s *State) queuedAgain(u Untold, host netip.Addr, clients map[int64]zkwatch.ClientInfo) bool {
	l := s.Locks[u.Lock]
	if l == nil {
		return false
	}
	for _, p := range l.Participants {
		if p.Session == u.Session || p.Pending || !p.Ctime.After(u.At) {
			continue
		}
		if ci, ok := clients[p.Session]; ok && hostOf(ci.Client) == host {
			return true
		}
	}
	return false
}

// hostOf is the address of a client's "host:port"; invalid when it does
// not parse.
func hostOf(client string) netip.Addr {
	ap, err := netip.ParseAddrPort(client)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// Holders are the lock's holders now, for an untold holder's successor:
// what a downstream store must now accept instead.
func (s *State) Holders(lock string) []lockcore.Participant {
	l := s.Locks[lock]
	if l == nil {
		return nil
	}
	var out []lockcore.Participant
	for _, p := range l.Participants {
		if p.Role == lockcore.RoleHolder {
			out = append(out, p)
		}
	}
	return out
}
