package zkwatch

import (
	"context"
	"time"

	"github.com/go-zookeeper/zk"
)

// trackConn follows the session's state from go-zookeeper's events and
// reports each change. After a reconnect in the same session the servers
// have restored the watches, so the locks are only read again to confirm
// the picture; after an expiry the watches are gone and everything is
// walked again.
func (w *Watcher) trackConn(ctx context.Context) {
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
		w.mu.Lock()
		prev := w.state
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
			w.state = next
			if next.Phase == Connected {
				w.resync = true
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
	return w.state
}
