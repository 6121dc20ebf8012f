package zkwatch

import (
	"context"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// sessionState is the session as trackConn last heard of it: trackConn
// alone changes it. run reads the state as it starts (connState); run's
// rounds and fillLoop read breaks before a lock's listing and compare it
// as they store what they read (track, store).
type sessionState struct {
	state ConnState
	// breaks counts the times the session lost its connection (or
	// expired): a lock read twice with no break between had its watch
	// armed throughout, so a change between the reads was read at once.
	breaks int
}

// trackConn follows the session's state from go-zookeeper's events and
// reports each change. After a reconnect in the same session the servers
// have restored the watches, so the locks are only read again to confirm
// the picture; after an expiry the watches are gone and everything is
// found and read again.
func (w *Watcher) trackConn(ctx context.Context) {
	var told string // the authentication problem last reported
	for {
		var ev zk.Event
		var ok bool
		select {
		case <-ctx.Done():
			return
		case ev, ok = <-w.conn.events:
			if !ok {
				return
			}
		}
		if ev.Type != zk.EventSession {
			continue
		}
		told = w.tellAuthProblem(ctx, told)
		w.mu.Lock()
		prev := w.session.state
		next := prev
		switch ev.State {
		case zk.StateHasSession:
			next = ConnState{Phase: Connected, Server: w.conn.zk.Server(), Session: w.conn.SessionID()}
		case zk.StateDisconnected:
			if prev.Phase == Connected {
				next = ConnState{Phase: Disconnected, Session: prev.Session}
			}
		case zk.StateExpired:
			next = ConnState{Phase: Expired, Session: prev.Session}
		}
		changed := next.Phase != prev.Phase || next.Session != prev.Session
		if changed {
			next.Since = time.Now()
			w.session.state = next
			if next.Phase != Connected {
				w.session.breaks++
			}
			switch {
			case next.Phase == Connected && next.Session != prev.Session:
				w.next.resync = true
			case next.Phase == Connected:
				// The watches survived the reconnect: read every lock
				// again to confirm the picture, without finding them
				// afresh.
				w.next.reread = true
			}
		}
		w.mu.Unlock()
		if changed {
			w.emit(ctx, Event{Kind: EventConn, At: next.Since, Conn: next})
			w.poke()
		}
	}
}

// connState returns the connection's state.
func (w *Watcher) connState() ConnState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.session.state
}

// guardOnce returns ctx, or for a one-shot watcher a context that also
// ends, with an error event, when the connection is lost: a one-shot walk
// reports what it could not read rather than wait for a server to return.
// The watcher calls stop before it closes Events.
func (w *Watcher) guardOnce(ctx context.Context) (guarded context.Context, stop func()) {
	if !w.cfg.Once {
		return ctx, func() {}
	}
	inner, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-inner.Done():
				return
			case ev, ok := <-w.conn.events:
				if !ok {
					return
				}
				if ev.Type == zk.EventSession && (ev.State == zk.StateDisconnected || ev.State == zk.StateExpired) {
					w.emit(ctx, Event{Kind: EventError, At: time.Now(),
						Err: fmt.Errorf("zkwatch: lost the connection to %s: the walk is incomplete", w.conn.target)})
					cancel()
					return
				}
			}
		}
	}()
	return inner, func() { cancel(); <-done }
}

// tellAuthProblem reports, once each, why the session's connections are
// not authenticated as asked (a member that refuses the SASL credentials
// on a reconnect, a server that requires SASL of a session without it):
// go-zookeeper only goes on trying, which would look like a connection
// lost. It returns what it has now told.
func (w *Watcher) tellAuthProblem(ctx context.Context, told string) string {
	p := w.conn.AuthProblem()
	if p == nil {
		return ""
	}
	if text := p.Error(); text != told {
		w.emit(ctx, Event{Kind: EventError, At: time.Now(), Err: fmt.Errorf("authentication: %w", p)})
		return text
	}
	return told
}

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
