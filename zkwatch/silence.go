package zkwatch

import (
	"math"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// A member's cons tells how long, at least, it has heard nothing from each
// session's connection, in two ways that need no clock shared with the
// server:
//
//   - Within one answer: lresp (last_response_time) is the member's own
//     monotonic clock at its last reply to the connection, and no reply
//     it lists is later than the moment it answered. The freshest lresp in
//     the answer is thus a lower bound of the member's time then, and a
//     connection's silence is at least that less its own lresp. It is
//     tight when some other client talked to the member just before.
//   - Across answers: a connection listed again with the same packets
//     received and the same lresp received nothing in between, so it has
//     been silent at least since the earlier answer came back (this
//     machine's monotonic clock), and at least as long as the earlier
//     answer proved, plus the time between: a member whose other clients
//     fall quiet cannot make a frozen session look as if it woke.
//
// A connection with a request in flight is not silent: its reply is
// late, not its client. Either bound may be below the truth, never above
// it: silence is never overstated.
//
// When a session was last heard from is bounded the other way, and needs
// the two clocks tied (see tieClock): dated only by the answer
// before the one whose counts grew, a live session's last ping seemed as
// old as the time between two answers, and one answer coming a session
// timeout after the one before (a poll held up on a loaded machine) read
// every live session as no longer talking.

// quietMark is what a member last said of one session's connection, and
// since when it has said the same.
type quietMark struct {
	client      string
	established time.Time
	received    int64
	lresp       int64
	// since is when the first answer with these counts came back; asked
	// when the last answer listing the connection was asked for, and done
	// when it came back; heard a time after which the member heard from
	// it (zero when unknown).
	since, asked, done, heard time.Time
	// silent is the silence that last answer proved: with the counts
	// unchanged, a later answer proves it and the time between, however
	// little its own lresps show.
	silent time.Duration
}

// hearSilence sets each fresh cons answer's silences from its own lresps
// and from e.quiet, which it then brings up to date, and when each
// session was last known to be heard from: after the answer before the
// last one whose counts grew, or, once two answers have tied the member's
// clock to ours (see tieClock), when the member received the request it
// last answered, whichever is later. e.mu is held.
// Answers reused from an earlier ask keep the silences they had.
func (e *Enricher) hearSilence(answers []memberAnswer) {
	if e.quiet == nil {
		e.quiet, e.clocks = map[string]map[int64]quietMark{}, map[string]memberClock{}
	}
	for i := range answers {
		a := &answers[i]
		if !a.consOK || a.consReused {
			continue
		}
		before := e.quiet[a.info.Addr]
		clock, tied := e.clocks[a.info.Addr]
		if clock, tied = tieClock(clock, tied, a, before); tied {
			e.clocks[a.info.Addr] = clock
		} else {
			delete(e.clocks, a.info.Addr)
		}
		marks := make(map[int64]quietMark, len(a.conns))
		a.silent, a.heard = map[int64]time.Duration{}, map[int64]time.Time{}
		freshest := int64(0)
		for _, c := range a.conns {
			freshest = max(freshest, c.LastResponseMonoMs)
		}
		for _, c := range a.conns {
			if c.Session == 0 {
				continue
			}
			m := quietMark{client: c.Client, established: c.Established, received: c.Received, lresp: c.LastResponseMonoMs,
				since: a.consDone, asked: a.consAt, done: a.consDone}
			old, ok := before[c.Session]
			ok = ok && old.client == m.client && old.established.Equal(m.established)
			same := ok && old.received == m.received && old.lresp == m.lresp
			switch {
			case same:
				m.since, m.heard = old.since, old.heard
			case ok:
				m.heard = old.asked
			}
			if h := clock.lastHeard(c); tied && h.After(m.heard) {
				m.heard = h
				if h.After(a.consAt) {
					m.heard = a.consAt
				}
			}
			if !m.heard.IsZero() {
				a.heard[c.Session] = m.heard
			}
			if c.Queued > 0 {
				marks[c.Session] = m
				continue
			}
			var d time.Duration
			if c.LastResponseMonoMs > 0 {
				d = time.Duration(freshest-c.LastResponseMonoMs) * time.Millisecond
			}
			if same {
				d = max(d, a.consAt.Sub(old.since), old.silent+a.consAt.Sub(old.done))
			}
			m.silent = d
			marks[c.Session] = m
			if d > 0 {
				a.silent[c.Session] = d
			}
		}
		e.quiet[a.info.Addr] = marks
	}
}

// Link is the connected Link of the session ci lists, with what its
// member's counters tell: Silent once it has sent nothing for more than a
// third of its timeout, Talking when two answers show it sent something
// within its timeout and it is not silent. Within the timeout rather than
// its third: answers a few seconds apart cannot place a packet closer, and
// a live client's pings, a third of its timeout apart, would make a
// tighter claim come and go from one answer to the next, and with it the
// Link of every live session.
func (ci ClientInfo) Link() lockcore.Link {
	k := lockcore.Link{State: lockcore.LinkConnected}
	switch {
	case lockcore.IsSilent(ci.Silent, ci.Timeout):
		k.Silent = lockcore.Silent{For: ci.Silent, At: ci.Asked, Timeout: ci.Timeout}
	case !ci.Heard.IsZero() && ci.Timeout > 0:
		k.Talking = ci.Asked.Sub(ci.Heard) <= ci.Timeout
	}
	return k
}

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
