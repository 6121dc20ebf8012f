package model

import (
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// LockAsAt is l as it stood at at, a moment after it was read with
// nothing changed since (a recording's cursor, as a replay shows it): its
// contenders' ages and holds grown by the time since l.ReadAt, read as of
// at, and the holders past the long-held threshold by then told so. A
// lock read at or after at is returned as it is.
func LockAsAt(l *lockcore.Lock, at time.Time) lockcore.Lock {
	if l.ReadAt.IsZero() || !at.After(l.ReadAt) {
		return *l
	}
	n := *l.At(at)
	d := at.Sub(l.ReadAt)
	n.Participants = slices.Clone(n.Participants)
	for i := range n.Participants {
		p := &n.Participants[i]
		if p.Pending {
			continue
		}
		p.Age += d
		if p.Role == lockcore.RoleHolder {
			p.Hold = lockcore.HoldAt(p.Hold, l.ReadAt, at)
		}
	}
	n.ReadAt = at
	return n
}
