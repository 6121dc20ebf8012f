package zkwatch

import (
	"math"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// A member's cons dates each connection's last response (lresp) and how
// long it took (llat) by the member's monotonic clock, which shares no
// origin with this machine's. Two answers tie the two clocks one way: a
// connection whose lresp grew between them was answered after the
// earlier answer was built, so after it was asked for. That response's
// time on the member's clock, read against the earlier ask on ours, bounds
// from below what ours read at any moment of the member's clock, and so
// when the member last heard from each session it lists: however far
// apart the answers, a live session's last ping is placed where it was,
// not at the answer before the one that showed it.
//
// Both clocks only go forward, but they may run at slightly different
// rates (NTP slews each by up to 500 ppm): a bound is lowered by clockDrift
// of the time between the moment it was proven and the moment it dates, so
// it stays a bound.

// clockDrift is how far two monotonic clocks may part per unit of time:
// both machines' NTP slewing their clocks the most, in opposite ways.
const clockDrift = 1e-3

// memberClock is a lower bound of this machine's clock when the member's
// monotonic clock read zero, as of at (this machine's clock).
type memberClock struct {
	zero, at time.Time
}

// zeroAt is c's bound for a moment t, less the drift between at and t.
func (c memberClock) zeroAt(t time.Time) time.Time {
	return c.zero.Add(-drift(t.Sub(c.at)))
}

// drift is the most two clocks may part over d (either way).
func drift(d time.Duration) time.Duration {
	return time.Duration(math.Abs(float64(d)) * clockDrift)
}

// tieClock returns the member's clock bound brought up to date with a
// fresh cons answer a, given the marks the member's last fresh answer
// left (before): the better, at a's ask, of the bound known (ok when
// there is one) and what each connection answered since the last answer
// proves. With no connection of before listed again, the member may be
// another process (restarted), whose clock has another origin: the bound
// is dropped.
func tieClock(c memberClock, ok bool, a *memberAnswer, before map[int64]quietMark) (memberClock, bool) {
	again := false
	for _, conn := range a.conns {
		old, listed := before[conn.Session]
		if conn.Session == 0 || !listed || old.client != conn.Client || !old.established.Equal(conn.Established) {
			continue
		}
		again = true
		if old.lresp <= 0 || conn.LastResponseMonoMs <= old.lresp {
			continue
		}
		// Answered after old was read, so after old.asked: the response
		// came at most a millisecond after the lresp printed, at some
		// moment up to a.consDone, to which the bound is dated.
		zero := old.asked.Add(-time.Duration(conn.LastResponseMonoMs+1)*time.Millisecond - drift(a.consDone.Sub(old.asked)))
		if fresh := (memberClock{zero: zero, at: a.consDone}); !ok || fresh.zeroAt(a.consAt).After(c.zeroAt(a.consAt)) {
			c, ok = fresh, true
		}
	}
	if !again {
		return memberClock{}, false
	}
	return c, ok
}

// lastHeard is, on this machine's clock, a time no later than when the
// member received the request it last answered on conn: lresp less that
// request's latency, placed by c. It is zero when conn gives no lresp.
func (c memberClock) lastHeard(conn words.Connection) time.Time {
	if conn.LastResponseMonoMs <= 0 {
		return time.Time{}
	}
	received := time.Duration(conn.LastResponseMonoMs-int64(math.Ceil(max(conn.LastLatency, 0)))) * time.Millisecond
	at := c.zero.Add(received)
	return at.Add(-drift(at.Sub(c.at)))
}
