package zkwatch

import (
	"github.com/zklocks/zklocks/zkwatch/words"
	"testing"
	"time"
)

func TestHearSilence(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	est := t0.Add(-time.Hour)
	conn := func(session, received, lresp, queued int64) words.Connection {
		return words.Connection{Client: "10.0.0.9:4000", Session: session, Established: est, Received: received, LastResponseMonoMs: lresp, Queued: queued}
	}
	answer := func(asked time.Time, conns ...words.Connection) []memberAnswer {
		return []memberAnswer{{info: ServerInfo{Addr: "zk1:2181"}, consOK: true, conns: conns, consAt: asked, consDone: asked.Add(10 * time.Millisecond)}}
	}
	e := &Enricher{}

	// First answer: only the member's own clock can tell. Session 1 replied
	// 7 s before session 2, the freshest; session 3 has a request in flight.
	first := answer(t0, conn(1, 40, 100_000, 0), conn(2, 90, 107_000, 0), conn(3, 5, 90_000, 1))
	e.hearSilence(first)
	if got := first[0].silent[1]; got != 7*time.Second {
		t.Errorf("one answer: session 1 silent %v, want 7s (freshest lresp less its own)", got)
	}
	if got, ok := first[0].silent[2]; ok {
		t.Errorf("one answer: the freshest session is silent %v, want not at all", got)
	}
	if got, ok := first[0].silent[3]; ok {
		t.Errorf("a session with a request in flight is silent %v, want not at all", got)
	}

	// Five seconds later nobody else talked (the freshest lresp is session
	// 1's own): the same counts prove it, across two answers.
	second := answer(t0.Add(5*time.Second), conn(1, 40, 100_000, 0), conn(2, 91, 100_000, 0))
	second[0].conns[1].LastResponseMonoMs = 100_000
	e.hearSilence(second)
	if got, want := second[0].silent[1], 7*time.Second+5*time.Second-10*time.Millisecond; got != want {
		t.Errorf("two answers: session 1 silent %v, want %v (the first answer's 7s, and the time since it came back)", got, want)
	}
	if got, ok := second[0].silent[2]; ok {
		t.Errorf("session 2 sent a packet, yet is silent %v", got)
	}

	// The member's other clients fall quiet: its own freshest lresp is
	// session 1's, yet what the first answer proved still holds, and
	// grows.
	quiet := answer(t0.Add(8*time.Second), conn(1, 40, 100_000, 0))
	e.hearSilence(quiet)
	if got, want := quiet[0].silent[1], 7*time.Second+8*time.Second-20*time.Millisecond; got != want {
		t.Errorf("members' clients quiet: session 1 silent %v, want %v (7s proven by the first answer, and the time since, less each answer's way back)", got, want)
	}

	// A new connection for the session (it moved, or reconnected) starts
	// afresh, as does one whose packets grew.
	moved := answer(t0.Add(10*time.Second), conn(1, 3, 100_000, 0))
	moved[0].conns[0].Established = t0.Add(9 * time.Second)
	e.hearSilence(moved)
	if got, ok := moved[0].silent[1]; ok {
		t.Errorf("a new connection is silent %v, want not at all", got)
	}

	// An answer kept from an earlier ask is not heard again.
	kept := answer(t0.Add(20*time.Second), conn(1, 3, 100_000, 0))
	kept[0].consReused, kept[0].silent = true, map[int64]time.Duration{1: time.Second}
	e.hearSilence(kept)
	if got := kept[0].silent[1]; got != time.Second {
		t.Errorf("a kept answer's silence became %v, want its own 1s", got)
	}
}

func TestHearSilenceHeard(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	e := &Enricher{}
	ask := func(at time.Time, received int64) []memberAnswer {
		a := []memberAnswer{{info: ServerInfo{Addr: "zk1:2181"}, consOK: true, consAt: at, consDone: at,
			conns: []words.Connection{{Client: "10.0.0.9:4000", Session: 1, Established: t0, Received: received, LastResponseMonoMs: received}}}}
		e.hearSilence(a)
		return a
	}
	if h, ok := ask(t0, 10)[0].heard[1]; ok {
		t.Fatalf("one answer says the session was heard after %v", h)
	}
	if h := ask(t0.Add(5*time.Second), 11)[0].heard[1]; !h.Equal(t0) {
		t.Fatalf("counts grew between two answers: heard after %v, want the first answer's %v", h, t0)
	}
	if h := ask(t0.Add(10*time.Second), 11)[0].heard[1]; !h.Equal(t0) {
		t.Fatalf("counts unchanged since: heard after %v, want still %v", h, t0)
	}
}

// BenchmarkHearSilence: one member's answer of 10,000 connections, heard
// against the one before, as every ask of a large cluster's member is.
func BenchmarkHearSilence(b *testing.B) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	conns := make([]words.Connection, 10000)
	for i := range conns {
		conns[i] = words.Connection{Client: "10.0.0.9:4000", Session: int64(i + 1), Established: t0, Received: int64(i % 7), LastResponseMonoMs: int64(100_000 + i)}
	}
	e := &Enricher{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a := []memberAnswer{{info: ServerInfo{Addr: "zk1:2181"}, consOK: true, conns: conns, consAt: t0.Add(time.Duration(i) * time.Second)}}
		e.hearSilence(a)
	}
}
