package model

import (
	"strconv"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// LockTrouble is how bad a lock's anomalies are, for sorting and for the
// list's ANOMALIES column.
type LockTrouble struct {
	// Worst is the most severe kind, the first found among equals; "" for
	// a lock without anomaly.
	Worst lockcore.AnomalyKind
	// Kinds counts the distinct kinds of anomaly.
	Kinds int
}

// Trouble returns l's worst anomaly kind and how many kinds it has.
func Trouble(l *lockcore.Lock) LockTrouble {
	var kinds []lockcore.AnomalyKind
	for _, a := range l.Anomalies {
		seen := false
		for _, k := range kinds {
			seen = seen || k == a.Kind
		}
		if !seen {
			kinds = append(kinds, a.Kind)
		}
	}
	return LockTrouble{Worst: lockcore.Worst(kinds), Kinds: len(kinds)}
}

// Worse reports whether t ranks before u: a more severe worst kind, then
// more kinds; any anomaly ranks before none.
func (t LockTrouble) Worse(u LockTrouble) bool {
	if (t.Kinds > 0) != (u.Kinds > 0) {
		return t.Kinds > 0
	}
	if st, su := t.Worst.Severity(), u.Worst.Severity(); st != su {
		return st > su
	}
	return t.Kinds > u.Kinds
}

// Short is the worst kind and how many others there are, "self-wait +2";
// "" for none.
func (t LockTrouble) Short() string {
	if t.Kinds == 0 {
		return ""
	}
	if t.Kinds == 1 {
		return string(t.Worst)
	}
	return string(t.Worst) + " +" + strconv.Itoa(t.Kinds-1)
}

// LongestWait returns when l's longest-waiting waiter queued (its lock's
// read time less its age: an estimate across two clocks), and false when
// no waiter's age is known: none waits, or none is read yet (Pending).
func LongestWait(l *lockcore.Lock) (time.Time, bool) {
	var since time.Time
	found := false
	for i := range l.Participants {
		q := &l.Participants[i]
		if q.Role == lockcore.RoleHolder || q.Pending {
			continue
		}
		at := l.ReadAt.Add(-q.Age)
		if !found || at.Before(since) {
			since, found = at, true
		}
	}
	return since, found
}

// AnomalyKinds lists a lock's distinct anomaly kinds, in first-seen order.
func AnomalyKinds(l *lockcore.Lock) []string {
	seen := map[lockcore.AnomalyKind]bool{}
	out := []string{}
	for _, a := range l.Anomalies {
		if !seen[a.Kind] {
			seen[a.Kind] = true
			out = append(out, string(a.Kind))
		}
	}
	return out
}
