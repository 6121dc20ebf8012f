package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

func TestTroubleShowsTheWorstKind(t *testing.T) {
	for _, tt := range []struct {
		name  string
		kinds []lockcore.AnomalyKind
		want  string
	}{
		{"none", nil, ""},
		{"one", []lockcore.AnomalyKind{lockcore.AnomalyHerd}, "herd"},
		{"worst is not first", []lockcore.AnomalyKind{lockcore.AnomalyDuplicateSession, lockcore.AnomalyDuplicateSession,
			lockcore.AnomalySelfWait, lockcore.AnomalyPersistent}, "self-wait +2"},
		{"stray below look", []lockcore.AnomalyKind{lockcore.AnomalyUnparsed, lockcore.AnomalyLongHeld}, "long-held +1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &lockcore.Lock{}
			for _, k := range tt.kinds {
				l.Anomalies = append(l.Anomalies, lockcore.Anomaly{Kind: k})
			}
			if got := Trouble(l).Short(); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTroubleOrder(t *testing.T) {
	mk := func(kinds ...lockcore.AnomalyKind) LockTrouble {
		l := &lockcore.Lock{}
		for _, k := range kinds {
			l.Anomalies = append(l.Anomalies, lockcore.Anomaly{Kind: k})
		}
		return Trouble(l)
	}
	stuck, look, two, none := mk(lockcore.AnomalyWaitCycle), mk(lockcore.AnomalyHerd),
		mk(lockcore.AnomalyHerd, lockcore.AnomalyLongHeld), mk()
	for _, c := range []struct {
		a, b LockTrouble
		want bool
	}{{stuck, look, true}, {look, stuck, false}, {two, look, true}, {look, none, true}, {none, look, false},
		{mk(lockcore.AnomalyUnparsed), none, true}, {stuck, two, true}} {
		if got := c.a.Worse(c.b); got != c.want {
			t.Errorf("%v worse than %v: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestLongestWait(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &lockcore.Lock{ReadAt: at, Participants: []lockcore.Participant{
		{Role: lockcore.RoleHolder, Age: time.Hour},
		{Role: lockcore.RoleWaiter, Age: 3 * time.Minute},
		{Role: lockcore.RoleWaiter, Age: time.Minute}}}
	if got, ok := LongestWait(l); !ok || !got.Equal(at.Add(-3*time.Minute)) {
		t.Fatalf("got %v %v", got, ok)
	}
	if _, ok := LongestWait(&lockcore.Lock{Participants: l.Participants[:1]}); ok {
		t.Fatal("a lock without waiter has a wait")
	}
}
