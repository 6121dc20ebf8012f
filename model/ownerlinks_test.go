package model

import (
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// servers is an EventServers answer at t0+at, asked asked before, listing
// sessions with a 10-second timeout.
func servers(at, asked time.Duration, complete bool, sessions ...int64) zkwatch.Event {
	clients := map[int64]zkwatch.ClientInfo{}
	for _, s := range sessions {
		clients[s] = zkwatch.ClientInfo{Session: s, Server: "127.0.0.1:2181", Client: "127.0.0.1:5000", Timeout: 10 * time.Second}
	}
	return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(at), ClientsAsked: t0.Add(at - asked),
		Clients: clients, ClientsComplete: complete}
}

func TestStateLinks(t *testing.T) {
	holder, waiter := int64(100), int64(101)
	disconnected := func(s *State) []lockcore.Anomaly {
		var out []lockcore.Anomaly
		for _, a := range s.Locks["/l"].Anomalies {
			if a.Kind == lockcore.AnomalyDisconnectedHolder {
				out = append(out, a)
			}
		}
		return out
	}
	s := NewState()
	s.Apply(lockEvent(lockOf("/l", 0, 1))) // read at t0
	if k := s.Link(holder); k.State != lockcore.LinkUnknown {
		t.Fatalf("before any answer: %+v", k)
	}
	// Asked before the lock was read: the holder may have connected since.
	s.Apply(servers(time.Second, 2*time.Second, true, waiter))
	if k := s.Link(holder); k.State != lockcore.LinkUnknown || len(disconnected(s)) != 0 {
		t.Fatalf("asked before the read: %+v, %v", k, disconnected(s))
	}
	s.Apply(servers(5*time.Second, time.Second, true, holder, waiter))
	if k := s.Link(holder); k.State != lockcore.LinkConnected || s.Locks["/l"].Participants[0].Session != holder {
		t.Fatalf("listed: %+v, participant %+v", k, s.Locks["/l"].Participants[0])
	}
	// An incomplete answer says nothing of a session it lacks.
	s.Apply(servers(10*time.Second, time.Second, false, waiter))
	if k := s.Link(holder); k.State != lockcore.LinkUnknown {
		t.Fatalf("incomplete: %+v", k)
	}
	// Missing from one complete answer: no evidence yet (it may be
	// handshaking again), and where it was last seen is kept.
	s.Apply(servers(15*time.Second, time.Second, true, waiter))
	if k := s.Link(holder); k.State != lockcore.LinkUnknown || k.LastClient != "127.0.0.1:5000" || len(disconnected(s)) != 0 {
		t.Fatalf("missing once: %+v, %v", k, disconnected(s))
	}
	// Gone: missing again a second look later. The timeout seen at 5s
	// counts from the first answer missing it.
	s.Apply(servers(20*time.Second, time.Second, true, waiter))
	if k := s.Link(holder); k.State != lockcore.LinkDisconnected || k.ExpiresWithin != 5*time.Second || k.ExpirySource != "cons" || !k.At.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("disconnected: %+v", k)
	}
	s.Apply(servers(22*time.Second, time.Second, true, waiter))
	if k := s.Link(holder); k.ExpiresWithin != 3*time.Second || !k.At.Equal(t0.Add(22*time.Second)) {
		t.Fatalf("2s later: %+v", k)
	}
	if a := disconnected(s); len(a) != 1 || a[0].Session != holder || !s.Ghost(holder) || s.Ghost(waiter) {
		t.Fatalf("anomalies %v, ghost %v %v", a, s.Ghost(holder), s.Ghost(waiter))
	}
	// The session expired: the holder's node went, the waiter holds.
	l := lockOf("/l", 1)
	l.ReadAt = t0.Add(26 * time.Second)
	s.Apply(lockEvent(l))
	s.Apply(servers(30*time.Second, time.Second, true, waiter))
	if a := disconnected(s); len(a) != 0 || len(s.Links) != 1 {
		t.Fatalf("after expiry: anomalies %v, links %v", a, s.Links)
	}
}

func TestStateLinksUnknownTimeout(t *testing.T) {
	s := NewState()
	s.Apply(lockEvent(lockOf("/l", 0)))
	s.Apply(servers(5*time.Second, time.Second, true))
	s.Apply(servers(10*time.Second, time.Second, true))
	if k := s.Link(100); k.State != lockcore.LinkDisconnected || k.ExpiryKnown() {
		t.Fatalf("never seen connected: %+v", k)
	}
	if got := s.Link(100).ExpiresText(0); got != "expires within its session timeout" {
		t.Errorf("text %q", got)
	}
}

// A session the members' last answer listed is linked as the lock that
// shows it first arrives, so that the next answer, saying the same,
// changes no lock: a first sync of thousands of locks is not linked
// twice.
func TestStateLinksASessionListedBeforeItsLockCame(t *testing.T) {
	holder, waiter := int64(100), int64(101)
	s := NewState()
	s.Apply(servers(-time.Second, time.Second, true, holder, waiter))
	s.Apply(lockEvent(lockOf("/l", 0, 1))) // read at t0
	for i, p := range s.Locks["/l"].Participants {
		if k := s.Link(p.Session); k.State != lockcore.LinkConnected {
			t.Fatalf("participant %d listed before its lock came: %+v, want connected", i, k)
		}
	}
	_, mark, _ := s.LockChanges(LockMark{})
	s.Apply(servers(5*time.Second, time.Second, true, holder, waiter))
	if changed, _, ok := s.LockChanges(mark); !ok || len(changed) != 0 {
		t.Fatalf("an answer saying the same changed %v (ok %v)", changed, ok)
	}
	s.Apply(servers(10*time.Second, time.Second, true, holder))
	s.Apply(servers(15*time.Second, time.Second, true, holder))
	if k := s.Link(s.Locks["/l"].Participants[1].Session); k.State != lockcore.LinkDisconnected {
		t.Fatalf("waiter missing from two complete answers: %+v, want disconnected", k)
	}
}

// A live client handshaking again after a dropped connection is listed by
// no member for a moment: one complete answer missing it, or two asked
// too close together to tell (a cons answer kept from the last poll is
// asked when it was), never make it disconnected; listed again, it is
// connected, and the next miss starts over.
func TestStateLinksReconnectingIsNeverDisconnected(t *testing.T) {
	holder, waiter := int64(100), int64(101)
	s := NewState()
	s.Apply(lockEvent(lockOf("/l", 0, 1))) // read at t0
	s.Apply(servers(5*time.Second, time.Second, true, holder, waiter))
	steps := []struct {
		at, asked time.Duration // the answer's time, and how long before it was asked
		listed    bool
		want      lockcore.LinkState
	}{
		{at: 10 * time.Second, asked: time.Second, want: lockcore.LinkUnknown},
		{at: 10500 * time.Millisecond, asked: 1500 * time.Millisecond, want: lockcore.LinkUnknown}, // the same cons
		{at: 11 * time.Second, asked: time.Second + zkwatch.SecondLook/2, want: lockcore.LinkUnknown},
		{at: 15 * time.Second, asked: time.Second, listed: true, want: lockcore.LinkConnected},
		{at: 20 * time.Second, asked: time.Second, want: lockcore.LinkUnknown},
		{at: 25 * time.Second, asked: time.Second, listed: true, want: lockcore.LinkConnected},
		{at: 30 * time.Second, asked: time.Second, want: lockcore.LinkUnknown},
		{at: 35 * time.Second, asked: time.Second, want: lockcore.LinkDisconnected},
	}
	for _, st := range steps {
		sessions := []int64{waiter}
		if st.listed {
			sessions = append(sessions, holder)
		}
		s.Apply(servers(st.at, st.asked, true, sessions...))
		k := s.Link(holder)
		if k.State != st.want {
			t.Fatalf("at %v: %+v, want %s", st.at, k, st.want)
		}
		anomalies := AnomalyKinds(s.Locks["/l"])
		if has := slices.Contains(anomalies, string(lockcore.AnomalyDisconnectedHolder)); has != (st.want == lockcore.LinkDisconnected) {
			t.Fatalf("at %v: anomalies %v with the holder %s", st.at, anomalies, st.want)
		}
	}
	if k := s.Link(holder); k.ExpiresWithin != 5*time.Second {
		t.Errorf("expiry counted from the miss at 30s, not the one at 10s: %+v", k)
	}
}
