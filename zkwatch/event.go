package zkwatch

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// EventKind says what an Event reports.
type EventKind int

// Event kinds.
const (
	// EventConn: the connection changed state (Event.Conn).
	EventConn EventKind = iota
	// EventLock: a lock was found or changed (Event.Lock is its new
	// analysis, replacing any earlier one for the same path).
	EventLock
	// EventLockGone: the lock at Event.Path is gone (deleted, or no longer
	// a lock parent).
	EventLockGone
	// EventDenied: the ACL at Event.Path denies this session; the walk
	// went on without it.
	EventDenied
	// EventSynced: every lock has been read since the last (re)connect or
	// session expiry; Event.At is the time of that confirmed sync.
	EventSynced
	// EventServers: what the servers said of themselves and their sessions
	// (Event.Servers, Event.Clients).
	EventServers
	// EventError: something failed that the watcher works around
	// (Event.Err); the picture may be incomplete until the next sync.
	EventError
	// EventDiscovery: how the watcher finds locks, and how far its walk
	// has got, changed (Event.Discovery).
	EventDiscovery
	// EventAction: an operator acted on the node at Event.Path through
	// zklocks (Event.Action). A Watcher never sends one: the program adds
	// its operator's actions to the watcher's events (model.ActionFeed),
	// so that the state and a recording have them in order with what the
	// cluster did.
	EventAction
)

// Event is one thing the watcher learned. Events are values: a consumer may
// keep them; nothing in one is changed after it is sent.
type Event struct {
	Kind EventKind
	At   time.Time
	Path string
	Lock *lockcore.Lock
	Conn ConnState
	// Action comes with EventAction.
	Action *lockcore.Action
	// Servers and Clients come with EventServers.
	Servers []ServerInfo
	Clients map[int64]ClientInfo
	// ClientsComplete: every member answered cons, so a session missing
	// from Clients is connected nowhere (a ghost suspect, if it owns nodes).
	ClientsComplete bool
	// ClientsAsked is when the oldest cons answer in Clients was asked
	// for: a session first seen owning a node after it may be missing
	// from Clients only because it connected later.
	ClientsAsked time.Time
	// ClientsNote says why ClientsComplete is false.
	ClientsNote string
	// Note says why the servers' watch table is not used, when it is not.
	Note string
	// WatchesAt is when the watch table in use was read (EventServers),
	// and WatchesFor the one lock it was read for, when it was kept to one.
	WatchesAt  time.Time
	WatchesFor string
	// Cost is what the four-letter words cost each member over the last
	// minute (EventServers).
	Cost []words.MemberCost
	// Discovery comes with EventDiscovery and EventSynced.
	Discovery Discovery
	Err       error
	// Ends, with EventLock and EventLockGone from a ZooKeeper transaction
	// log (never from a watcher, which cannot know), say how each node
	// that went in this change went.
	Ends []NodeEnd `json:",omitempty"`
}

// EndHow is how a node went, as ZooKeeper's transaction log says it.
type EndHow string

// How a node went.
const (
	// EndDeletedByOwner: its own session deleted it (or, for a node no
	// session owns, the session By did).
	EndDeletedByOwner EndHow = "deleted-by-owner"
	// EndDeletedByOther: a session other than its owner (By) deleted it.
	EndDeletedByOther EndHow = "deleted-by-other"
	// EndExpired: the server closed its session at its timeout.
	EndExpired EndHow = "expired"
	// EndClosed: its client closed its session.
	EndClosed EndHow = "closed"
)

// NodeEnd is how one node went, from the transaction that removed it.
type NodeEnd struct {
	Path  string
	Czxid int64
	How   EndHow
	// At is the transaction's time (the leader's clock).
	At time.Time
	// By is the session whose transaction removed it; Session its owner
	// (0 for a node no session owns).
	By      int64
	Session int64
	// Timeout is the owner session's timeout, and LastHeard the time of
	// its last transaction before the end (a lower bound of when its
	// client was last heard: pings are not logged); zero when the log and
	// snapshot read do not say.
	Timeout   time.Duration
	LastHeard time.Time
}

// ServerInfo is one ensemble member as its four-letter words (or its
// AdminServer) describe it.
type ServerInfo struct {
	Addr string
	// Status is srvr's answer; zero when the server did not answer.
	Status words.ServerStatus
	// Refused names the four-letter words this server's whitelist refused.
	Refused []string
	// Err is why the server could not be asked, if it could not.
	Err error
	// Failed holds, by word, why a word other than srvr got no usable
	// answer (a timeout, a reply that did not parse). Refusals are in
	// Refused, not here.
	Failed map[string]error
	// Via says, by word, which way its answer came: the four-letter word,
	// or the AdminServer command that stands for it (see AdminCommand).
	Via map[string]words.Via
	// AdminErr is why the member's AdminServer was not there when a
	// refused word was asked of it (it wraps words.ErrAdminUnavailable); nil
	// when it answered or was not needed.
	AdminErr error
}

// setVia records how w was answered; an empty via records nothing.
func (s *ServerInfo) setVia(w string, via words.Via) {
	if via == "" {
		return
	}
	if s.Via == nil {
		s.Via = map[string]words.Via{}
	}
	s.Via[w] = via
}

// ClientInfo is what the servers know of one session's connection.
type ClientInfo struct {
	Session int64
	// Server is the member the session is connected to.
	Server string
	// Client is the client's address as that server saw it.
	Client string
	// Name is the client host's name by reverse DNS, once a lookup
	// bounded to a fraction of a second found one; empty otherwise.
	Name string
	// LastOperation is cons' lop, e.g. GETD.
	LastOperation string
	// Established is when the connection was made (server clock).
	Established time.Time
	// Timeout is the session timeout the client negotiated (cons' to=);
	// zero when the server did not say.
	Timeout time.Duration
	// Asked is when the member that lists the session was asked for its
	// connections (this machine's clock), and Silent how long, at least,
	// it had then received nothing from the session: a lower bound, from
	// its own clock or from two of its answers, never a guess (zero when
	// it tells nothing). A live client sends at least a ping every third
	// of its session timeout (see lockcore.IsSilent).
	Asked  time.Time     `json:",omitzero"`
	Silent time.Duration `json:",omitzero"`
	// Heard is a time after which the member received something from the
	// session: an earlier answer's Asked, its counts having grown in the
	// answer after, or, later, when the member received the request it
	// last answered (its own lresp less that request's latency), placed
	// on this machine's clock by what two of its answers proved of its
	// clock. Never later than Asked; zero when no two answers tell.
	Heard time.Time `json:",omitzero"`
}
