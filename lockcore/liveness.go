package lockcore

import (
	"fmt"
	"time"
)

// A live ZooKeeper client sends its server at least a ping every third of
// its session timeout: the Java client once it has sent nothing for two
// thirds of its read timeout (itself two thirds of the session timeout)
// less up to a second, kazoo a little before a third, go-zookeeper every
// third whatever else it sends. A client that has sent nothing for longer
// has missed its ping: its process is stopped (a long GC pause, SIGSTOP, a
// stalled VM) or cannot send, though its connection still stands.

// pingSlack is what a late ping is allowed past a third of the timeout:
// the way from client to server, and a scheduler's delay.
const pingSlack = time.Second

// SilentAfter is how long a session with timeout may send nothing before it
// is silent: a third of its timeout and pingSlack.
func SilentAfter(timeout time.Duration) time.Duration { return timeout/3 + pingSlack }

// IsSilent reports whether a session whose member has heard nothing from
// it for at least quiet (a lower bound) has missed its ping. Without the
// timeout nothing is judged.
func IsSilent(quiet, timeout time.Duration) bool {
	return timeout > 0 && quiet > SilentAfter(timeout)
}

// Silent says, for a connected session, how long its member has heard
// nothing from it: set only once that is past SilentAfter, so that a
// live session's Link stays the same from one answer to the next.
type Silent struct {
	// For is how long at least the member had heard nothing when it
	// answered at At (this machine's clock); Timeout is the session's.
	For     time.Duration
	At      time.Time
	Timeout time.Duration
}

// Left is how long the session has before it expires if it stays silent,
// at now: its timeout less its silence, less the time since the answer.
// The silence is a lower bound, so the true figure may be shorter; the
// leader rounds an expiry up to its next tick, which may add one.
func (s Silent) Left(now time.Time) time.Duration {
	return max(s.Timeout-s.For-now.Sub(s.At), 0)
}

// Short says it in a few words, at now: "silent ≥15s · no ping · expires
// within ~25s"; "" when the session is not silent.
func (s Silent) Short(now time.Time) string {
	if s.For == 0 {
		return ""
	}
	left := s.Left(now)
	expires := fmt.Sprintf("expires within ~%ds", seconds(left))
	if left == 0 {
		expires = "expiry due"
	}
	return fmt.Sprintf("silent ≥%ds · no ping · %s", seconds(s.For), expires)
}

// seconds rounds d up to whole seconds.
func seconds(d time.Duration) int { return int((max(d, 0) + time.Second - 1) / time.Second) }

// Liveness is what the servers' traffic counters tell of a session's
// client. The strings are stable: scripts read them from JSON output.
type Liveness string

// Livenesses. A frozen holder, a hung one, a crashed one and an expired
// one call for different fixes, and read differently everywhere.
const (
	// LiveUnknown: the counters cannot tell (no member's answer lists the
	// session yet, or only one answer did and it showed nothing).
	LiveUnknown Liveness = "unknown"
	// LiveTalking: two of its member's answers show it sent something
	// within its timeout, and none shows it silent: its process runs. A
	// holder that talks yet holds long is hung (its work, not its client,
	// is stuck).
	LiveTalking Liveness = "talking"
	// LiveSilent: connected, but its member has heard nothing from it for
	// longer than a third of its timeout: frozen. Unless it wakes, its
	// session expires at its timeout, and its client, when it wakes, is
	// not told at once that it lost its nodes.
	LiveSilent Liveness = "silent"
	// LiveGone: no member holds a connection for it (LinkDisconnected):
	// its client crashed or is cut off.
	LiveGone Liveness = "disconnected"
)

// Liveness says what k tells of its session's client.
func (k Link) Liveness() Liveness {
	switch {
	case k.State == LinkDisconnected:
		return LiveGone
	case k.State != LinkConnected:
		return LiveUnknown
	case k.Silent.For > 0:
		return LiveSilent
	case k.Talking:
		return LiveTalking
	}
	return LiveUnknown
}
