package session

import (
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// rawReadBuffer is how much of the connection is read at once; rawNap
// how long notifications that stream in (more than rawStreamRate a second
// over a rawWindow) are left to gather: what it adds to a notification's
// latency in a flood.
const (
	rawReadBuffer = 64 << 10
	rawNap        = 20 * time.Millisecond
	rawStreamRate = 1000
	rawWindow     = 100 * time.Millisecond
)

// streamMeter tells a stream of frames from a few: it counts the frames
// of each window of at least rawWindow and says whether the last came
// at rawStreamRate a second or faster.
type streamMeter struct {
	start  time.Time
	frames int
	fast   bool
}

// streaming ends the window under way if it is rawWindow old at now, and
// reports whether the last window ended was fast.
func (m *streamMeter) streaming(now time.Time) bool {
	if d := now.Sub(m.start); d >= rawWindow {
		m.fast = float64(m.frames) >= rawStreamRate*d.Seconds()
		m.start, m.frames = now, 0
	}
	return m.fast
}

// read reads every frame until the connection ends. A server that sends
// nothing, not even a ping's answer, for two thirds of the session's
// timeout is taken as gone, as go-zookeeper does.
func (s *Session) read() {
	var meter streamMeter
	for {
		if s.in.Buffered() < 4 {
			// About to wait on the connection, not on what it has sent.
			// While notifications stream in, a nap first lets them
			// gather, so that a flood costs one wake-up and one read per
			// nap rather than per notification; a few, such as a new
			// lock's, are read at once.
			now := time.Now()
			if meter.streaming(now) {
				time.Sleep(rawNap)
			}
			s.conn.SetReadDeadline(now.Add(s.timeout * 2 / 3))
			if _, err := s.in.Peek(4); err != nil {
				s.fail(err)
				return
			}
		}
		meter.frames++
		frame, err := jute.ReadFrame(s.in, jute.MaxFrame)
		if err != nil {
			s.fail(err)
			return
		}
		r := jute.NewReader(frame)
		h := jute.ReadReplyHeader(r)
		if r.Err() != nil {
			s.fail(r.Err())
			return
		}
		if h.Zxid > 0 {
			s.mu.Lock()
			s.ident.lastZxid = max(s.ident.lastZxid, h.Zxid)
			s.mu.Unlock()
		}
		switch h.Xid {
		case jute.XidNotification:
			ev := jute.ReadWatcherEvent(r)
			if r.Err() != nil {
				s.fail(r.Err())
				return
			}
			s.onNotify(ev)
		case jute.XidPing:
		default:
			s.mu.Lock()
			ch := s.pending[h.Xid]
			s.mu.Unlock()
			if ch != nil {
				ch <- h
			}
		}
	}
}

// ping keeps the session alive: a ping every third of its timeout.
func (s *Session) ping() {
	tick := time.NewTicker(s.timeout / 3)
	defer tick.Stop()
	var w jute.Writer
	jute.RequestHeader{Xid: jute.XidPing, OpCode: jute.OpPing}.Write(&w)
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		if err := s.write(w.Bytes()); err != nil {
			s.fail(err)
			return
		}
	}
}
