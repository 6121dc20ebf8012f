package recording

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// churn plays contenders joining and leaving Curator mutexes, as a
// watcher would report them: each step is one change (a create or a
// delete) and yields the lock's new analysis.
type churn struct {
	rng      *rand.Rand
	locks    []*simLock
	sessions []int64
	zxid     int64
	now      time.Time
	step     time.Duration
}

type simLock struct {
	path  string
	seq   int
	queue []lockcore.Node
}

// newChurn makes n locks, each with about depth contenders queued, owned
// by sessions sessions, one change every step.
func newChurn(seed uint64, n, depth, sessions int, step time.Duration) *churn {
	c := &churn{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), zxid: 0x100000000,
		now: time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC), step: step}
	for i := range sessions {
		c.sessions = append(c.sessions, 0x100008e2d9b0000+int64(i))
	}
	for i := range n {
		l := &simLock{path: fmt.Sprintf("/locks/orders-%03d", i)}
		for range depth {
			c.join(l)
		}
		c.locks = append(c.locks, l)
	}
	return c
}

func (c *churn) uuid() string {
	a, b := c.rng.Uint64(), c.rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", uint32(a>>32), uint16(a>>16), uint16(a)&0xfff,
		uint16(b>>48)&0xfff, b&0xffffffffffff)
}

func (c *churn) join(l *simLock) {
	c.zxid++
	name := fmt.Sprintf("_c_%s-lock-%010d", c.uuid(), l.seq)
	l.seq++
	// A client's session has at most one contender in a lock.
	s := c.sessions[c.rng.IntN(len(c.sessions))]
	for taken(l.queue, s) {
		s = c.sessions[c.rng.IntN(len(c.sessions))]
	}
	// Curator stores the client's address; the server's clock is a
	// little behind the watcher's read.
	data := fmt.Sprintf("10.0.%d.%d", s%7, s%250)
	ctime := c.now.Add(-time.Duration(c.rng.IntN(3000)) * time.Microsecond).UnixMilli()
	l.queue = append(l.queue, lockcore.Node{Name: name, Data: []byte(data), Stat: zk.Stat{
		Czxid: c.zxid, Mzxid: c.zxid, EphemeralOwner: s, Ctime: ctime, Mtime: ctime, DataLength: int32(len(data))}})
}

// next makes one change and returns the event that reports it.
func (c *churn) next() zkwatch.Event {
	// Changes come at random, step apart on average.
	c.now = c.now.Add(time.Duration(c.rng.ExpFloat64() * float64(c.step)))
	l := c.locks[c.rng.IntN(len(c.locks))]
	if len(l.queue) > 0 && (c.rng.IntN(2) == 0 || len(l.queue) > 12 || len(l.queue) >= len(c.sessions)) {
		l.queue = l.queue[1:] // the holder releases
	} else {
		c.join(l)
	}
	return c.event(l)
}

func (c *churn) event(l *simLock) zkwatch.Event {
	t := lockcore.Tree{Path: l.path, Self: lockcore.Node{Name: l.path[len("/locks/"):]}, ReadAt: c.now,
		Children: append([]lockcore.Node(nil), l.queue...)}
	lk := lockcore.Analyze(t, nil, lockcore.Options{LongHeld: 5 * time.Minute})
	return zkwatch.Event{Kind: zkwatch.EventLock, At: c.now, Path: l.path, Lock: &lk}
}

func taken(queue []lockcore.Node, session int64) bool {
	for _, n := range queue {
		if n.Stat.EphemeralOwner == session {
			return true
		}
	}
	return false
}
