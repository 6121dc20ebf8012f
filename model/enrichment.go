package model

import (
	"time"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Enrichment is what the members said in their last answer
// (zkwatch.EventServers): who they are and how they answered, the
// sessions connected to them, their watch table, and what asking them
// cost.
type Enrichment struct {
	Servers []zkwatch.ServerInfo
	Clients map[int64]zkwatch.ClientInfo
	// ClientsComplete: every server answered cons, so Clients lists every
	// connected session.
	ClientsComplete bool
	// Fix says what to change on the servers when members answer neither
	// four-letter words nor an AdminServer (zkwatch.NoWayFix).
	Fix string
	// ClientsNote says why ClientsComplete is false.
	ClientsNote string
	// WatchesNote says why the servers' watch table is not in use, and
	// WatchesAt when the table in use was read.
	WatchesNote string
	WatchesAt   time.Time
	// WatchesFor is the one lock the table was read for, when the
	// servers hold too many watches to read it for every lock.
	WatchesFor string
	// Cost is what zklocks' four-letter words cost each member over the
	// last minute.
	Cost []words.MemberCost

	// clientsAsked is when the members were asked for Clients.
	clientsAsked time.Time
	// members is what the last members' answer said of each member,
	// leader the member that last said it leads, and leaderless that no
	// member answering says so since (connlog.go); members is replaced,
	// never changed in place, so clones share it.
	members    map[string]memberSeen
	leader     string
	leaderless bool
	// hidden is, by plain lock, the hidden waiters the last table read
	// for it found (KnownHidden).
	hidden map[string]HiddenAsOf
}

// take keeps what the members said in ev (EventServers).
func (e *Enrichment) take(ev zkwatch.Event) {
	e.Servers, e.Clients, e.ClientsComplete, e.WatchesNote = ev.Servers, ev.Clients, ev.ClientsComplete, ev.Note
	e.clientsAsked = ev.ClientsAsked
	if e.clientsAsked.IsZero() {
		e.clientsAsked = ev.At
	}
	e.Fix = zkwatch.NoWayFix(ev.Servers)
	e.WatchesAt, e.WatchesFor, e.Cost, e.ClientsNote = ev.WatchesAt, ev.WatchesFor, ev.Cost, ev.ClientsNote
}
