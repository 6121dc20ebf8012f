package lockclient

import (
	"sync"

	"github.com/go-zookeeper/zk"
)

// Session relays one connection's session events to the holders on it.
// Give its Event method to go-zookeeper as the connection's event callback
// (zk.WithEventCallback(s.Event)), or call Event with every event read from
// the connection's channel, and acquire through WithSession(conn, s). The
// zero Session is ready to use.
type Session struct {
	mu   sync.Mutex
	next int
	subs map[int]func(zk.State)
}

// Event passes a session event on to every subscriber; other events are
// ignored. It does not block beyond the subscribers' own calls, which must
// not block.
func (s *Session) Event(ev zk.Event) {
	if ev.Type != zk.EventSession {
		return
	}
	s.mu.Lock()
	subs := make([]func(zk.State), 0, len(s.subs))
	for _, f := range s.subs {
		subs = append(subs, f)
	}
	s.mu.Unlock()
	for _, f := range subs {
		f(ev.State)
	}
}

// OnState implements SessionEvents.
func (s *Session) OnState(f func(zk.State)) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs == nil {
		s.subs = map[int]func(zk.State){}
	}
	id := s.next
	s.next++
	s.subs[id] = f
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// WithSession returns c with s's session events (SessionEvents): holders
// acquired through it hear of a drop from the event itself.
func WithSession(c ZK, s *Session) ZK {
	return sessionConn{ZK: c, Session: s}
}

type sessionConn struct {
	ZK
	*Session
}
