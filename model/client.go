package model

import (
	"time"

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
	// Name is Addr's host name by reverse DNS, when one was found.
	Name string
	// Gone: every server answered and none lists the session, so its nodes
	// may have outlived it (a ghost).
	Gone bool
	// New: the session's nodes appeared after the servers were last asked,
	// so their silence about it says nothing yet.
	New bool
	// Last is where and when a server last listed the session's client,
	// when no server lists it now (see lockcore.Link.LastClient); shown
	// in the location of Last.LastSeen (see In).
	Last lockcore.Link
}

// In returns c with its times shown in loc.
func (c Client) In(loc *time.Location) Client {
	if !c.Last.LastSeen.IsZero() {
		c.Last.LastSeen = c.Last.LastSeen.In(loc)
	}
	return c
}

// lastSeen is where and when the client was last seen, in LastSeen's own
// location; empty when never.
func (c Client) lastSeen() string {
	return Printable(c.Last.LastSeenText(c.Last.LastSeen.Location()))
}

// ClientOf looks session up in what the servers' cons reported: clients by
// session, and complete when every server answered.
func ClientOf(clients map[int64]zkwatch.ClientInfo, complete bool, session int64) Client {
	c := Client{Session: session}
	if session == 0 {
		return c
	}
	if ci, ok := clients[session]; ok && ci.Client != "" {
		c.Addr, c.Server, c.Name = ci.Client, ci.Server, ci.Name
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
		k := s.Link(session)
		link := k.State
		c.Gone = link == lockcore.LinkDisconnected
		if k.LastClient != "" {
			c.Last = lockcore.Link{LastClient: k.LastClient, LastServer: k.LastServer, LastSeen: k.LastSeen, LastName: k.LastName}
		}
		// After a complete answer, a session is still unknown only
		// because it was first seen after the members were asked.
		c.New = session != 0 && s.ClientsComplete && link == lockcore.LinkUnknown
	}
	return c
}

// Short is the client in a table cell, escaped: its address; "-" for a
// persistent node; the address a server last listed with when ("10.1.2.3:51234,
// last seen 20:05:52") for a session no server lists now; "disconnected" for
// one no server lists that was never seen (see State.Link); "unknown yet"
// for one newer than the servers' last answer; "?" when no server said.
func (c Client) Short() string {
	switch {
	case c.Session == 0:
		return "-"
	case c.Addr != "":
		return Printable(c.Addr)
	case c.Last.LastClient != "":
		return c.lastSeen()
	case c.Gone:
		return "disconnected"
	case c.New:
		return "unknown yet"
	}
	return "?"
}

// String is the client in a sentence, escaped: its address and server, or
// why there is none.
func (c Client) String() string {
	switch {
	case c.Session == 0:
		return "none (no session)"
	case c.Addr != "" && c.Name != "":
		return Printable(c.Addr) + " (" + Printable(c.Name) + ") via " + Printable(c.Server)
	case c.Addr != "" && c.Server != "":
		return Printable(c.Addr) + " via " + Printable(c.Server)
	case c.Addr != "":
		return Printable(c.Addr)
	case c.Gone && c.Last.LastClient != "":
		return "none now: every server answered and none lists this session; " + c.lastSeen() + " via " + Printable(c.Last.LastServer)
	case c.Last.LastClient != "":
		return "not listed now; " + c.lastSeen() + " via " + Printable(c.Last.LastServer)
	case c.Gone:
		return "none: every server answered and none lists this session"
	case c.New:
		return "unknown yet: the session joined after the servers were last asked"
	}
	return "unknown (no server named this session)"
}
