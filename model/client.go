package model

import (
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// NoSession is how a node that no session owns (a persistent node) is
// named wherever a session is shown.
const NoSession = "persistent"

// SessionText formats a session id for people: 0x and hex, as ZooKeeper's
// tools print it, or NoSession for 0.
func SessionText(id int64) string {
	if id == 0 {
		return NoSession
	}
	return lockcore.SessionHex(id)
}

// Client is what the servers said of a session's client: never a guess.
type Client struct {
	// Session is the session asked about; 0 for a persistent node, which
	// has no client.
	Session int64
	// Addr is the client's address as its server saw it, and Server that
	// server; empty when no server named the session.
	Addr, Server string
	// Gone: every server answered and none lists the session, so its nodes
	// may have outlived it (a ghost).
	Gone bool
}

// ClientOf looks session up in what the servers' cons reported: clients by
// session, and complete when every server answered.
func ClientOf(clients map[int64]zkwatch.ClientInfo, complete bool, session int64) Client {
	c := Client{Session: session}
	if session == 0 {
		return c
	}
	if ci, ok := clients[session]; ok && ci.Client != "" {
		c.Addr, c.Server = ci.Client, ci.Server
		return c
	}
	_, listed := clients[session]
	c.Gone = complete && !listed
	return c
}

// Client is what the servers last said of session's client. Gone follows
// the session's Link: a session first seen after the members were asked
// is not taken for gone.
func (s *State) Client(session int64) Client {
	c := ClientOf(s.Clients, s.ClientsComplete, session)
	if c.Addr == "" {
		c.Gone = s.Link(session).State == lockcore.LinkDisconnected
	}
	return c
}

// Short is the client in a table cell, escaped: its address; "-" for a
// persistent node; "disconnected" for a session no server lists (see
// State.Link); "?" when no server said.
func (c Client) Short() string {
	switch {
	case c.Session == 0:
		return "-"
	case c.Addr != "":
		return Printable(c.Addr)
	case c.Gone:
		return "disconnected"
	}
	return "?"
}

// String is the client in a sentence, escaped: its address and server, or
// why there is none.
func (c Client) String() string {
	switch {
	case c.Session == 0:
		return "none (no session)"
	case c.Addr != "" && c.Server != "":
		return Printable(c.Addr) + " via " + Printable(c.Server)
	case c.Addr != "":
		return Printable(c.Addr)
	case c.Gone:
		return "none: every server answered and none lists this session"
	}
	return "unknown (no server named this session)"
}
