package zkwatch

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// pinger is a simulated client of one member: it sends a ping every
// `every` from first on, until frozen (never when zero), and the member
// answers each at once.
type pinger struct {
	session     int64
	client      string
	first       time.Time
	every       time.Duration
	frozen      time.Time
	established time.Time
}

// pings counts the pings the member received by at, and when it got the
// last one.
func (p pinger) pings(at time.Time) (int64, time.Time) {
	end := at
	if !p.frozen.IsZero() && p.frozen.Before(at) {
		end = p.frozen
	}
	if end.Before(p.first) {
		return 0, time.Time{}
	}
	n := int64(end.Sub(p.first)/p.every) + 1
	return n, p.first.Add(time.Duration(n-1) * p.every)
}

// simMember answers cons as a member whose monotonic clock read origin
// (in ms) at t0 on ours.
type simMember struct {
	t0      time.Time
	origin  int64
	clients []pinger
}

func (m simMember) mono(t time.Time) int64 { return m.origin + t.Sub(m.t0).Milliseconds() }

// answer is its cons asked at at, built 5 ms later and back 10 ms later.
func (m simMember) answer(at time.Time) []memberAnswer {
	built := at.Add(5 * time.Millisecond)
	var conns []words.Connection
	for _, p := range m.clients {
		n, last := p.pings(built)
		conns = append(conns, words.Connection{Client: p.client, Session: p.session, Established: p.established,
			Received: n, Sent: n, LastResponseMonoMs: m.mono(last), Timeout: 10 * time.Second})
	}
	return []memberAnswer{{info: ServerInfo{Addr: "zk1:2181"}, consOK: true, conns: conns, consAt: at, consDone: at.Add(10 * time.Millisecond)}}
}

// link is the Link session's ClientInfo gets from a heard answer.
func (a memberAnswer) link(session int64) (ClientInfo, bool) {
	for _, c := range a.conns {
		if c.Session == session {
			return ClientInfo{Session: session, Timeout: c.Timeout, Asked: a.consAt, Silent: a.silent[session], Heard: a.heard[session]}, true
		}
	}
	return ClientInfo{}, false
}

// TestHearSilenceTalkingAcrossALateAnswer: a live go-zookeeper client
// (pings every third of its 10 s timeout) stays talking, and its Link the
// same, when an answer comes more than its timeout after the one before,
// as a poll held up on a loaded machine does. Dated by the answer before,
// its last ping was placed 11 s back and it read as not talking for that
// one answer, and every lock it owns was linked again twice.
func TestHearSilenceTalkingAcrossALateAnswer(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	est := t0.Add(-time.Minute)
	third := 10 * time.Second / 3
	m := simMember{t0: t0, origin: 7_000_000, clients: []pinger{
		{session: 1, client: "10.0.0.9:4001", first: t0.Add(-time.Minute), every: third, established: est},
		{session: 2, client: "10.0.0.9:4002", first: t0.Add(-time.Minute + 1700*time.Millisecond), every: third, established: est},
	}}
	e := &Enricher{}
	var prev time.Time
	for i, off := range []time.Duration{0, 5, 10, 15, 26, 31, 36, 49, 54} {
		at := t0.Add(off * time.Second)
		gap := at.Sub(prev)
		prev = at
		a := m.answer(at)
		e.hearSilence(a)
		for _, p := range m.clients {
			ci, _ := a[0].link(p.session)
			_, last := p.pings(at.Add(5 * time.Millisecond))
			if ci.Heard.After(last) {
				t.Fatalf("answer at +%v: session %d heard after %v, yet its last ping came at %v", off*time.Second, p.session, ci.Heard, last)
			}
			k := ci.Link()
			if i == 0 {
				continue // one answer tells nothing
			}
			if !k.Talking || k.Silent.For > 0 {
				t.Errorf("answer at +%v (%v after the one before): session %d's link %+v, want talking (heard %v, last ping %v)",
					off*time.Second, gap, p.session, k, ci.Heard, last)
			}
		}
	}
}

// TestHearSilenceFrozenAfterTheClockIsTied: once the member's clock is
// tied to ours, a client that stops pinging is still heard no later than
// its last ping, reads silent past a third of its timeout, and never
// talking again.
func TestHearSilenceFrozenAfterTheClockIsTied(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	est := t0.Add(-time.Minute)
	third := 10 * time.Second / 3
	m := simMember{t0: t0, origin: 42_000, clients: []pinger{
		{session: 1, client: "10.0.0.9:4001", first: t0.Add(-time.Minute), every: third, established: est, frozen: t0.Add(12 * time.Second)},
		{session: 2, client: "10.0.0.9:4002", first: t0.Add(-time.Minute + 900*time.Millisecond), every: third, established: est},
	}}
	e := &Enricher{}
	_, lastPing := m.clients[0].pings(m.clients[0].frozen)
	for _, off := range []time.Duration{0, 5, 10, 15, 20, 25, 30} {
		at := t0.Add(off * time.Second)
		a := m.answer(at)
		e.hearSilence(a)
		ci, _ := a[0].link(1)
		if ci.Heard.After(lastPing) {
			t.Fatalf("answer at +%v: the frozen session heard after %v, its last ping at %v", off*time.Second, ci.Heard, lastPing)
		}
		k := ci.Link()
		quiet := at.Sub(lastPing)
		if quiet > 10*time.Second/3+2*time.Second && k.Silent.For == 0 {
			t.Errorf("answer at +%v, %v after its last ping: link %+v, want silent", off*time.Second, quiet, k)
		}
		if quiet > 10*time.Second && k.Talking {
			t.Errorf("answer at +%v, %v after its last ping: still talking", off*time.Second, quiet)
		}
	}
}

// TestHearSilenceClockOfARestartedMember: a member whose every connection
// is new (its process restarted, its monotonic clock another origin) is
// not read with the clock its earlier answers tied: no session is heard
// from it until two of its new answers tie the new clock.
func TestHearSilenceClockOfARestartedMember(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	third := 10 * time.Second / 3
	before := simMember{t0: t0, origin: 90_000_000, clients: []pinger{
		{session: 1, client: "10.0.0.9:4001", first: t0.Add(-time.Minute), every: third, established: t0.Add(-time.Minute)}}}
	e := &Enricher{}
	for _, off := range []time.Duration{0, 5, 10} {
		e.hearSilence(before.answer(t0.Add(off * time.Second)))
	}
	// Restarted: a clock far ahead of the old one's reading, the client
	// connected again from another port.
	after := simMember{t0: t0, origin: 900_000_000, clients: []pinger{
		{session: 1, client: "10.0.0.9:4711", first: t0.Add(12 * time.Second), every: third, established: t0.Add(12 * time.Second)}}}
	a := after.answer(t0.Add(15 * time.Second))
	e.hearSilence(a)
	if h, ok := a[0].heard[1]; ok {
		t.Errorf("the first answer of a restarted member says the session was heard after %v", h)
	}
}
