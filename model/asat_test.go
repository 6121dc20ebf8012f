package model

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// A lock read at t0 and shown at a later cursor has its contenders' ages
// and its holder's hold measured at the cursor, as the replay shows them.
func TestLockAsAtMeasuresAtTheCursor(t *testing.T) {
	l := lockOf("/t", 0, 1) // both nodes made a minute before t0
	at := t0.Add(37 * time.Second)
	n := LockAsAt(l, at)
	for i, p := range n.Participants {
		if want := l.Participants[i].Age + 37*time.Second; p.Age != want {
			t.Errorf("%s: age %s at the cursor, want %s", p.Node, p.Age, want)
		}
	}
	h := n.Participants[0]
	if h.Role != lockcore.RoleHolder || h.Hold.Max != l.Participants[0].Hold.Max+37*time.Second {
		t.Errorf("the holder's hold %+v at the cursor, read %+v", h.Hold, l.Participants[0].Hold)
	}
	if l.Participants[0].Age == n.Participants[0].Age {
		t.Error("the lock read was changed in place")
	}
	if same := LockAsAt(l, t0.Add(-time.Second)); same.Participants[0].Age != l.Participants[0].Age {
		t.Errorf("a cursor before the read changed the ages: %s", same.Participants[0].Age)
	}
}
