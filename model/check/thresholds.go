package check

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// Thresholds say what makes a lock a warning or critical. A zero duration
// or count turns that threshold off.
type Thresholds struct {
	// WarnHeld is the hold past which a holder is long-held (the analysis'
	// long-held anomaly), and CritHeld the hold past which a long-held
	// holder is critical whatever the kind lists say.
	WarnHeld, CritHeld time.Duration
	// WarnWaiters and CritWaiters: a lock with at least this many waiters.
	WarnWaiters, CritWaiters int
	// WarnWait and CritWait: a lock whose oldest waiter has waited at
	// least this long, by its node's ctime: the one exact figure of a
	// stuck queue, whose holder's grant often cannot be dated. Leader
	// elections are left out: their candidates wait as long as the
	// leader leads.
	WarnWait, CritWait time.Duration
	// Critical and Warning are the anomaly kinds of each severity; a kind
	// in neither is not reported. Critical wins over Warning.
	Critical, Warning []lockcore.AnomalyKind
}

// DefaultWarnWait is the wait of a lock's oldest waiter past which the
// queue is a warning when neither flags nor the context say otherwise:
// twice the default long-held hold, so that a holder that holds on alone
// shows as long-held first, and a queue stuck behind it (or behind a
// chain of holders) still warns where no hold can be dated.
const DefaultWarnWait = 10 * time.Minute

// DefaultThresholds are the thresholds when neither flags nor the context
// set them: every kind that does not resolve on its own is critical, the
// kinds that deserve a look are warnings, a hold of 5 minutes is
// long-held (a warning), an oldest waiter of DefaultWarnWait a warning,
// and the number of waiters, critical holds and critical waits have no
// threshold, as what is normal for them depends on the lock.
func DefaultThresholds() Thresholds {
	return Thresholds{
		WarnHeld: 5 * time.Minute,
		WarnWait: DefaultWarnWait,
		Critical: DefaultCritical(),
		Warning:  DefaultWarning(),
	}
}

// DefaultWarning are the anomaly kinds that are warnings by default: the
// herd, a session's duplicate nodes, a long hold, a waiter whose client is
// gone (its session expires on its own), and the applications'
// own failure signs. These can be a moment of a failover that the
// application completes on its own (a breadcrumb rewritten after
// fencing, a broker registering again), so they ask for a look rather
// than page; name them with --critical to page on them.
func DefaultWarning() []lockcore.AnomalyKind {
	return []lockcore.AnomalyKind{lockcore.AnomalyHerd, lockcore.AnomalyDuplicateSession, lockcore.AnomalyLongHeld, lockcore.AnomalyDisconnectedWaiter,
		lockcore.AnomalyUnfenced, lockcore.AnomalyHolderUnregistered, lockcore.AnomalyBackupIsActive,
		lockcore.AnomalyLeaderWithoutCandidate, lockcore.AnomalyDuplicateSeq}
}

// DefaultCritical are the anomaly kinds critical by default: those whose
// severity is lockcore.SeverityStuck, which do not resolve on their own.
func DefaultCritical() []lockcore.AnomalyKind {
	var out []lockcore.AnomalyKind
	for _, k := range lockcore.AnomalyKinds() {
		if k.Severity() == lockcore.SeverityStuck {
			out = append(out, k)
		}
	}
	return out
}

// Validate says what is inconsistent: negative values, a critical
// threshold below its warning one.
func (t Thresholds) Validate() error {
	switch {
	case t.WarnHeld < 0 || t.CritHeld < 0:
		return fmt.Errorf("hold thresholds must not be negative, got %s and %s", t.WarnHeld, t.CritHeld)
	case t.WarnWaiters < 0 || t.CritWaiters < 0:
		return fmt.Errorf("waiters thresholds must not be negative, got %d and %d", t.WarnWaiters, t.CritWaiters)
	case t.WarnWait < 0 || t.CritWait < 0:
		return fmt.Errorf("wait thresholds must not be negative, got %s and %s", t.WarnWait, t.CritWait)
	case t.WarnWait > 0 && t.CritWait > 0 && t.CritWait < t.WarnWait:
		return fmt.Errorf("--crit-wait %s is below --warn-wait %s", t.CritWait, t.WarnWait)
	case t.WarnHeld > 0 && t.CritHeld > 0 && t.CritHeld < t.WarnHeld:
		return fmt.Errorf("--crit-held %s is below --warn-held %s", t.CritHeld, t.WarnHeld)
	case t.WarnWaiters > 0 && t.CritWaiters > 0 && t.CritWaiters < t.WarnWaiters:
		return fmt.Errorf("--crit-waiters %d is below --warn-waiters %d", t.CritWaiters, t.WarnWaiters)
	}
	return nil
}

// LongHeld is the analysis option that makes holders long-held: the
// lower of the hold thresholds that are on.
func (t Thresholds) LongHeld() time.Duration {
	if t.WarnHeld > 0 && (t.CritHeld == 0 || t.WarnHeld < t.CritHeld) {
		return t.WarnHeld
	}
	return t.CritHeld
}
