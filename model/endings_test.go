package model

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// answer is an EventServers asked at t0+at and in a moment later, listing
// clients.
func answer(at time.Duration, complete bool, clients ...zkwatch.ClientInfo) zkwatch.Event {
	m := map[int64]zkwatch.ClientInfo{}
	for _, c := range clients {
		if c.Asked.IsZero() {
			c.Asked = t0.Add(at)
		}
		m[c.Session] = c
	}
	return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(at + 100*time.Millisecond), ClientsAsked: t0.Add(at), Clients: m, ClientsComplete: complete}
}

// client is session's client at addr with a 9-second timeout.
func client(session int64, addr string) zkwatch.ClientInfo {
	return zkwatch.ClientInfo{Session: session, Server: "127.0.0.1:2181", Client: addr, Timeout: 9 * time.Second}
}

func TestEndings(t *testing.T) {
	const holder, waiter = int64(100), int64(101)
	h, w := client(holder, "10.0.0.1:4000"), client(waiter, "10.0.0.2:4000")
	heard := func(c zkwatch.ClientInfo, at time.Duration) zkwatch.ClientInfo { c.Heard = t0.Add(at); return c }
	silent := func(c zkwatch.ClientInfo, d time.Duration) zkwatch.ClientInfo { c.Silent = d; return c }
	tests := []struct {
		name string
		// before are the answers before the holder's node goes at 10s;
		// after those after.
		before, after []zkwatch.Event
		want          Ender
		untold        bool
		log           []Change // the holder's entries
	}{
		{name: "released: the session is listed after its node went",
			before: []zkwatch.Event{answer(time.Second, true, h, w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, h, w)},
			want:   EndedByRelease, log: []Change{Released}},
		{name: "no answer since: not known",
			before: []zkwatch.Event{answer(time.Second, true, h, w)},
			want:   EndedByUnknown, log: []Change{Released}},
		{name: "an answer asked before the node went tells nothing",
			before: []zkwatch.Event{answer(time.Second, true, h, w)},
			after:  []zkwatch.Event{answer(9*time.Second, true, w)},
			want:   EndedByUnknown, log: []Change{Released}},
		{name: "incomplete answers never say gone",
			before: []zkwatch.Event{answer(time.Second, true, h, w)},
			after:  []zkwatch.Event{answer(11*time.Second, false, w), answer(16*time.Second, false, w)},
			want:   EndedByUnknown, log: []Change{Released}},
		{name: "frozen: silent, then its session ended with its node",
			before: []zkwatch.Event{answer(time.Second, true, heard(h, 0), w), answer(6*time.Second, true, silent(heard(h, 0), 5*time.Second), w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedByExpiry, untold: true, log: []Change{Silent, Released}},
		{name: "crashed: connected to no member as its node went",
			before: []zkwatch.Event{answer(time.Second, true, h, w), answer(6*time.Second, true, w), answer(8*time.Second, true, w)},
			want:   EndedByExpiry, untold: true, log: []Change{Disconnected, Released}},
		{name: "missing from one answer as its node went: no evidence, judged by the next",
			before: []zkwatch.Event{answer(time.Second, true, h, w), answer(6*time.Second, true, w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedBySessionEnd, log: []Change{Released}},
		{name: "missing from two answers too close to tell a reconnect: no evidence",
			before: []zkwatch.Event{answer(time.Second, true, h, w), answer(6*time.Second, true, w), answer(7*time.Second, true, w)},
			want:   EndedByUnknown, log: []Change{Released}},
		{name: "closed: its session ended before it could have expired",
			before: []zkwatch.Event{answer(time.Second, true, h, w), answer(6*time.Second, true, heard(h, 5*time.Second), w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedByClose, log: []Change{Released}},
		{name: "closed as its node went: connected nowhere, but heard too recently to have expired",
			before: []zkwatch.Event{answer(time.Second, true, heard(h, 5*time.Second), w), answer(6*time.Second, true, w), answer(8*time.Second, true, w)},
			want:   EndedByClose, log: []Change{Disconnected, Released}},
		{name: "silent, yet heard too recently to have expired: closed",
			before: []zkwatch.Event{answer(time.Second, true, heard(h, 3*time.Second), w), answer(8*time.Second, true, silent(heard(h, 3*time.Second), 5*time.Second), w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedByClose, log: []Change{Silent, Released}},
		{name: "ended long after it was last heard, never seen silent: not known which",
			before: []zkwatch.Event{answer(time.Second, true, heard(h, 0), w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedBySessionEnd, log: []Change{Released}},
		{name: "never heard from, its session gone: not known which",
			before: []zkwatch.Event{answer(time.Second, true, h, w)},
			after:  []zkwatch.Event{answer(11*time.Second, true, w)},
			want:   EndedBySessionEnd, log: []Change{Released}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewState()
			s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
			s.Apply(lockEvent(lockOf("/l", 0, 1)))
			s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
			for _, ev := range tc.before {
				s.Apply(ev)
			}
			next := lockOf("/l", 1)
			s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(10 * time.Second), Path: "/l", Lock: next})
			for _, ev := range tc.after {
				s.Apply(ev)
			}
			var log []Change
			var ended HistoryEntry
			for _, e := range s.History {
				if e.Session == holder {
					log = append(log, e.Change)
					ended = e
				}
			}
			if len(log) != len(tc.log) || (len(log) > 0 && log[len(log)-1] != tc.log[len(tc.log)-1]) {
				t.Fatalf("holder's log %v, want %v", log, tc.log)
			}
			for i := range log {
				if log[i] != tc.log[i] {
					t.Fatalf("holder's log %v, want %v", log, tc.log)
				}
			}
			if ended.EndedBy != tc.want {
				t.Errorf("ended by %q, want %q", ended.EndedBy, tc.want)
			}
			if got := len(s.Untold) == 1; got != tc.untold {
				t.Fatalf("untold %+v, want one: %v", s.Untold, tc.untold)
			}
			if tc.untold {
				u := s.Untold[0]
				if u.Session != holder || u.Token != 1 || u.Lock != "/l" || u.Client != h.Client || s.Expiries != 1 {
					t.Errorf("untold %+v, expiries %d", u, s.Expiries)
				}
				if hs := s.Holders("/l"); len(hs) != 1 || hs[0].Token != 2 {
					t.Errorf("new holders %+v, want the waiter's token 2", hs)
				}
			}
		})
	}
}

func TestUntoldForgotten(t *testing.T) {
	const holder, waiter, again = int64(100), int64(101), int64(102)
	h, w := client(holder, "10.0.0.1:4000"), client(waiter, "10.0.0.2:4000")
	start := func() *State {
		s := NewState()
		s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
		s.Apply(lockEvent(lockOf("/l", 0, 1)))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
		s.Apply(answer(time.Second, true, h, w))
		s.Apply(answer(6*time.Second, true, w))
		s.Apply(answer(8*time.Second, true, w))
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(10 * time.Second), Path: "/l", Lock: lockOf("/l", 1)})
		if len(s.Untold) != 1 {
			t.Fatalf("untold %+v after the crashed holder's expiry", s.Untold)
		}
		return s
	}

	s := start()
	// Its host reconnects with a new session, which queues nothing:
	// nothing says the client knows.
	s.Apply(answer(12*time.Second, true, w, client(again, "10.0.0.1:4100")))
	if len(s.Untold) != 1 {
		t.Fatalf("a new session from its host, queued nowhere: untold %+v, want kept", s.Untold)
	}
	// The new session queues on the lock again.
	l := lockOf("/l", 1, 2)
	l.Participants[1].Ctime = t0.Add(13 * time.Second)
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(13 * time.Second), Path: "/l", Lock: l})
	s.Apply(answer(14*time.Second, true, w, client(again, "10.0.0.1:4100")))
	if len(s.Untold) != 0 {
		t.Fatalf("its host queued again: untold %+v, want none", s.Untold)
	}

	// Its host has no connection left: a frozen client has none either
	// until it wakes.
	s = start()
	s.Apply(answer(13*time.Second, true, w))
	if len(s.Untold) != 1 {
		t.Fatalf("no member lists a connection from its host: untold %+v, want kept", s.Untold)
	}
	if s.Link(waiter).Liveness() != lockcore.LiveUnknown {
		t.Errorf("the waiter's liveness %q from answers that tell nothing", s.Link(waiter).Liveness())
	}
}

// frozenHolder is a state whose lock /l has holder 100 and waiter 101,
// both listed at 1 s, then the holder silent for 5 s in the answer at
// 6 s; it returns the two as listed, and the holder as silent.
func frozenHolder() (s *State, h, w, frozen zkwatch.ClientInfo) {
	h, w = client(100, "10.0.0.1:4000"), client(101, "10.0.0.2:4000")
	s = NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(lockEvent(lockOf("/l", 0, 1)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	s.Apply(answer(time.Second, true, h, w))
	frozen = h
	frozen.Silent = 5 * time.Second
	s.Apply(answer(6*time.Second, true, frozen, w))
	return s, h, w, frozen
}

func TestSilentThenWoke(t *testing.T) {
	const holder, waiter = int64(100), int64(101)
	s, h, w, frozen := frozenHolder()
	s.Apply(answer(7*time.Second, true, frozen, w)) // still silent: logged once
	s.Apply(answer(8*time.Second, true, h, w))
	var log []Change
	for _, e := range s.History {
		log = append(log, e.Change)
	}
	if len(log) != 2 || log[0] != Silent || log[1] != Woke {
		t.Fatalf("log %v, want silent then woke", log)
	}
	if !strings.Contains(s.History[0].Silent.Short(s.History[0].At), "silent ≥5s") {
		t.Errorf("silent entry %+v", s.History[0])
	}
}
