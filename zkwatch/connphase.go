package zkwatch

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// ConnPhase is where the session stands.
type ConnPhase int

// Connection phases.
const (
	// Connecting: no session yet.
	Connecting ConnPhase = iota
	// Connected: a session is established with Server.
	Connected
	// Disconnected: the session may live on, but no server is reachable;
	// go-zookeeper keeps trying, and watches survive a reconnect in time.
	Disconnected
	// Expired: the server ended the session, with its ephemeral nodes and
	// watches; a new session follows, and everything is read again.
	Expired
	// Closed: the watcher was closed.
	Closed
)

func (p ConnPhase) String() string {
	switch p {
	case Connecting:
		return "connecting"
	case Connected:
		return "connected"
	case Disconnected:
		return "disconnected"
	case Expired:
		return "expired"
	}
	return "closed"
}

// ConnState is the connection's state as a value.
type ConnState struct {
	Phase ConnPhase
	// Server is the server of the current session, when connected.
	Server string
	// Session is the current (or last) session id.
	Session int64
	// Since is when the connection entered this phase.
	Since time.Time
}

func (s ConnState) String() string {
	switch s.Phase {
	case Connected:
		return fmt.Sprintf("connected to %s (session %s)", s.Server, lockcore.SessionHex(s.Session))
	case Disconnected:
		return fmt.Sprintf("disconnected since %s", s.Since.Format(time.TimeOnly))
	}
	return s.Phase.String()
}
