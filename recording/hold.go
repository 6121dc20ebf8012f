package recording

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// holdKinds are the holds a line names by a letter ("hk", format 5)
// rather than store, when the default is not the participant's: seen
// granted at the read, held since its creation, granted between its
// creation and the read, not read yet, none.
var holdKinds = []string{"s", "c", "b", "p", "0"}

// deriveHold is the hold a reader derives for p, kind "" being the
// default: base's hold carried to the read (a holder's grant stays what
// it was; only its bounds as of the read move), or for a participant
// whose base held nothing, a holder granted between its creation and the
// read, a waiter none. lockcore makes the holds, so that a derived hold
// equals the analysis' own.
func deriveHold(kind string, base lockcore.Hold, p lockcore.Participant, readAt time.Time) lockcore.Hold {
	switch kind {
	case "":
		switch {
		case base.How != "":
			return base.AsOf(readAt)
		case p.Role == lockcore.RoleHolder:
			return lockcore.NewHold(p.Ctime, readAt, lockcore.HoldBounded, readAt)
		}
	case "s":
		return lockcore.NewHold(readAt, readAt, lockcore.HoldSeen, readAt)
	case "c":
		return lockcore.NewHold(p.Ctime, p.Ctime, lockcore.HoldCreated, readAt)
	case "b":
		return lockcore.NewHold(p.Ctime, readAt, lockcore.HoldBounded, readAt)
	case "p":
		return lockcore.Hold{How: lockcore.HoldPending}
	}
	return lockcore.Hold{}
}

// withCarriedHold is p with its hold carried to readAt: what a line that
// refers to p unchanged gives from format 5 on.
func withCarriedHold(p lockcore.Participant, readAt time.Time) lockcore.Participant {
	p.Hold = p.Hold.AsOf(readAt)
	return p
}

// sameHold reports whether the reader's hold b stands for a: the same
// kind, times to the microsecond (the recording's precision; the bounds
// are worked out from a read time kept to it), durations within one.
func sameHold(a, b lockcore.Hold) bool {
	near := func(x, y time.Duration) bool { return x-y <= time.Microsecond && y-x <= time.Microsecond }
	return a.How == b.How && a.After.IsZero() == b.After.IsZero() && a.By.IsZero() == b.By.IsZero() &&
		a.After.UnixMicro() == b.After.UnixMicro() && a.By.UnixMicro() == b.By.UnixMicro() &&
		near(a.Min, b.Min) && near(a.Max, b.Max)
}

// sameStoredHeld is sameStored with a's hold as the reader carries it to
// readAt, compared as sameHold does.
func sameStoredHeld(a, b lockcore.Participant, readAt time.Time) bool {
	if !sameHold(a.Hold.AsOf(readAt), b.Hold) {
		return false
	}
	a.Hold, b.Hold = lockcore.Hold{}, lockcore.Hold{}
	return sameStored(a, b)
}

// promoted reports whether p holds where its base (the same contender on
// the lock's last line) waited: a holder watches nothing, unless the line
// says otherwise (format 5).
func promoted(base, p lockcore.Participant) bool {
	return base.Node != "" && base.Role != lockcore.RoleHolder && p.Role == lockcore.RoleHolder
}
