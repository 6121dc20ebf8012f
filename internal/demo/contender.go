package demo

import (
	"context"
	"fmt"
	"path"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// phase is where a contender is in its loop.
type phase int

const (
	resting   phase = iota // between turns
	waiting                // queued, not holding
	holding                // holds (or is frozen holding)
	releasing              // letting go
)

// contender is one session taking the lock in turns. Its fields below mu
// are guarded by the Demo's mu.
type contender struct {
	id        int
	conn      *zkwatch.Conn
	zk        *countingZK
	locks     *lockclient.Client // owns what our lock client leaves in the background
	session   int64
	cancel    context.CancelFunc
	lostReply bool // LoseReply's contender: its first create's reply is "lost"

	phase  phase
	mode   lockcore.Mode
	node   string // our node while waiting (once known) or holding
	since  time.Time
	ticket int64 // order among waiters: node sequence, or naive arrival; -1 unknown
	frozen bool
	thaw   chan struct{}
}

// stop ends the contender's session, so that its nodes go at once, and
// its loop.
func (c *contender) stop() {
	c.conn.Close()
	c.locks.Close()
	c.cancel()
}

// thawLocked lets a frozen contender go; d.mu must be held.
func (c *contender) thawLocked() {
	if c.frozen {
		c.frozen = false
		close(c.thaw)
	}
}

// add dials a new contender and starts its loop.
func (d *Demo) add(ctx context.Context, lostReply bool) (*contender, error) {
	conn, err := d.dial(ctx)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithCancel(d.ctx)
	c := &contender{conn: conn, session: conn.SessionID(), cancel: cancel, lostReply: lostReply, ticket: -1}
	c.zk = newCountingZK(conn.LockZK(), &d.wakeups)
	c.locks = lockclient.NewClient(c.zk.locker())
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		c.stop()
		return nil, ErrClosed
	}
	d.nextID++
	c.id = d.nextID
	d.contenders = append(d.contenders, c)
	d.wg.Add(1)
	d.mu.Unlock()
	d.emit(Event{Kind: Joined, Contender: c.id, Session: c.session})
	go d.run(cctx, c)
	return c, nil
}

// run is a contender's life: take the lock, hold it, let go, rest, again,
// until its context ends. A panic ends only this contender, and its
// session.
func (d *Demo) run(ctx context.Context, c *contender) {
	defer d.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			d.remove(c)
			c.stop()
			d.emit(Event{Kind: Crashed, Contender: c.id, Session: c.session, Err: fmt.Errorf("demo: contender %d: %v", c.id, r)})
		}
	}()
	first := true
	for turn := 1; ctx.Err() == nil; turn++ {
		if d.cfg.beforeTurn != nil {
			d.cfg.beforeTurn(c.id, turn)
		}
		var err error
		if d.cfg.Recipe == Naive {
			err = d.naiveTurn(ctx, c, first && c.lostReply)
		} else {
			err = d.fairTurn(ctx, c, first && c.lostReply)
		}
		first = false
		if err != nil && ctx.Err() == nil {
			d.setPhase(c, resting)
			d.emit(Event{Kind: Failed, Contender: c.id, Session: c.session, Err: err})
		}
		d.rest(ctx, d.randDuration(d.cfg.Pause/5, d.cfg.Pause))
	}
}

func (d *Demo) rest(ctx context.Context, p time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(p):
	}
}

// fairTurn takes the lock once with lockcore's client, holds it, and
// releases it. With orphan, it first creates a node the way a client
// without protection does, and pretends the reply was lost.
func (d *Demo) fairTurn(ctx context.Context, c *contender, orphan bool) error {
	mode := d.pickMode()
	d.startWaiting(c, mode)
	if orphan {
		if err := d.createOrphan(c, mode); err != nil {
			return err
		}
	}
	spec := lockclient.Spec{Path: d.lockPath, Mode: mode, Recipe: d.cfg.Recipe.lockRecipe(), MaxLeases: d.cfg.MaxLeases,
		Data: d.data(c), Progress: func(p lockclient.Progress) { d.queued(c, p.Node) }}
	held, err := c.locks.Acquire(ctx, spec)
	if err != nil {
		return err
	}
	d.granted(c, held.Node, seqOf(held.Node))
	lost := d.hold(ctx, c, held.Lost())
	err = held.Release(ctx)
	var deleted int64
	if held.DeletedOwn() {
		deleted = held.Token
	}
	d.released(c, deleted)
	if lost || ctx.Err() != nil {
		return nil
	}
	return err
}

// createOrphan creates a node in the queue with a plain create, as a
// client without protection does, and "loses" the reply: the node stays,
// unknown to its own session, until it is fenced or the session ends.
func (d *Demo) createOrphan(c *contender, mode lockcore.Mode) error {
	dir, recipe, as := d.lockPath, lockcore.RecipeCuratorMutex, lockcore.ModeExclusive
	switch {
	case d.cfg.Recipe == ReadWrite:
		recipe, as = lockcore.RecipeCuratorRWLock, lockcore.ModeWrite
	case d.cfg.Recipe == Semaphore:
		dir, recipe, as = d.lockPath+"-__lock__", lockcore.RecipeKazooSemaphore, lockcore.ModeLease
	}
	name, err := lockcore.NodePrefix(recipe, as, 0, "")
	if err != nil {
		return err
	}
	created, err := c.zk.Create(dir+"/"+name, d.data(c), flagEphemeralSequential, openACL)
	if err != nil {
		return fmt.Errorf("demo: create %s: %w", dir, err)
	}
	d.orphaned(c, created, mode)
	return nil
}

// hold waits for the hold time to pass and, while the contender is
// frozen, for it to thaw. It returns true when the lock was lost first.
func (d *Demo) hold(ctx context.Context, c *contender, lost <-chan struct{}) bool {
	t := time.NewTimer(d.randDuration(d.cfg.HoldMin, d.cfg.HoldMax))
	defer t.Stop()
	select {
	case <-t.C:
	case <-lost:
		return true
	case <-ctx.Done():
		return false
	}
	for {
		d.mu.Lock()
		if !c.frozen {
			c.phase = releasing
			d.mu.Unlock()
			return false
		}
		thaw := c.thaw
		d.mu.Unlock()
		select {
		case <-thaw:
		case <-lost:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

func (d *Demo) pickMode() lockcore.Mode {
	switch d.cfg.Recipe {
	case ReadWrite:
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.rng.IntN(3) == 0 {
			return lockcore.ModeWrite
		}
		return lockcore.ModeRead
	case Semaphore:
		return lockcore.ModeLease
	}
	return lockcore.ModeExclusive
}

func (d *Demo) data(c *contender) []byte { return fmt.Appendf(nil, "zklocks demo contender %d", c.id) }

func seqOf(node string) int64 {
	n := lockcore.ParseName(path.Base(node))
	if !n.HasSeq {
		return -1
	}
	return n.Seq
}
