package demo

import (
	"math"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// The bookkeeping of the contenders' phases, from which Stats and the
// controls work. Each step takes d.mu, and emits after letting it go.

// startWaiting: c begins a turn; its place in the queue is not known yet.
func (d *Demo) startWaiting(c *contender, mode lockcore.Mode) {
	d.mu.Lock()
	c.phase, c.mode, c.node, c.ticket, c.since = waiting, mode, "", -1, time.Now()
	d.mu.Unlock()
}

// queued: lockcore told c's node while it waits; its sequence is c's place.
func (d *Demo) queued(c *contender, node string) {
	d.mu.Lock()
	if c.phase == waiting && c.ticket < 0 {
		c.node, c.ticket = node, seqOf(node)
	}
	d.mu.Unlock()
}

// arrive: c found the naive lock taken; the first time in a turn, that is
// its place among the waiters.
func (d *Demo) arrive(c *contender) {
	d.mu.Lock()
	if c.phase == waiting && c.ticket < 0 {
		d.arrivals++
		c.ticket = d.arrivals
	}
	d.mu.Unlock()
}

func (d *Demo) setPhase(c *contender, p phase) {
	d.mu.Lock()
	c.phase = p
	d.mu.Unlock()
}

// granted: c holds, through node; key is its place in the queue (-1 when
// not known: then its ticket, if it waited at all). It is a FIFO break when
// a contender with an earlier place still waits, unless both share the
// lock (two readers, two leases).
func (d *Demo) granted(c *contender, node string, key int64) {
	d.mu.Lock()
	if key < 0 {
		key = c.ticket
	}
	if key < 0 {
		key = math.MaxInt64 // came without waiting: after every waiter
	}
	out := false
	for _, o := range d.contenders {
		if o != c && o.phase == waiting && o.ticket >= 0 && o.ticket < key && !(shared(o.mode) && shared(c.mode)) {
			out = true
			break
		}
	}
	d.grants++
	if out {
		d.fifoBreaks++
	}
	waited := time.Since(c.since)
	c.phase, c.node, c.since = holding, node, time.Now()
	ev := Event{Kind: Granted, Contender: c.id, Session: c.session, Node: node, Mode: c.mode, Waited: waited, OutOfOrder: out}
	d.mu.Unlock()
	d.emit(ev)
}

func shared(m lockcore.Mode) bool { return m == lockcore.ModeRead || m == lockcore.ModeLease }

// released: c's hold ended (released, lost, or its session killed).
func (d *Demo) released(c *contender, deletedOwn int64) {
	d.mu.Lock()
	d.releases++
	c.thawLocked()
	ev := Event{Kind: Released, Contender: c.id, Session: c.session, Node: c.node, Mode: c.mode, DeletedOwn: deletedOwn}
	c.phase, c.node, c.ticket = resting, "", -1
	d.mu.Unlock()
	d.emit(ev)
}

// remove takes c out of the live contenders; it reports whether c was
// there.
func (d *Demo) remove(c *contender) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, o := range d.contenders {
		if o == c {
			d.contenders = append(d.contenders[:i:i], d.contenders[i+1:]...)
			c.thawLocked()
			return true
		}
	}
	return false
}
