package demo

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// Add starts one more contender with its own session. It blocks while the
// session is established (bounded by ctx and Config.DialTimeout) and
// returns a sentence saying who joined.
func (d *Demo) Add(ctx context.Context) (string, error) {
	c, err := d.add(ctx, false)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("contender %d joined (session %s)", c.id, lockcore.SessionHex(c.session)), nil
}

// Kill closes one contender's session, as a crashed client's session ends:
// its node vanishes and the waiter behind it watches the next one ahead
// (the chain heals). It picks the waiter in the middle of the queue, or a
// holder when nobody waits, and never LoseReply's contender while another
// can go. It returns a sentence saying whom it killed.
func (d *Demo) Kill() (string, error) {
	d.mu.Lock()
	c := d.victim()
	if c == nil {
		d.mu.Unlock()
		return "", ErrNoContender
	}
	node, ph, mode := c.node, c.phase, c.mode
	d.mu.Unlock()
	if !d.remove(c) {
		return "", ErrNoContender
	}
	c.stop()
	d.emit(Event{Kind: Killed, Contender: c.id, Session: c.session, Node: node, Mode: mode})
	what := "resting"
	switch {
	case ph == waiting && node != "":
		what = "waiting as " + model.ShortNode(path.Base(node))
	case ph == waiting:
		what = "waiting"
	case ph == holding || ph == releasing:
		what = "holding " + model.ShortNode(path.Base(node))
	}
	return fmt.Sprintf("killed contender %d, %s (session %s)", c.id, what, lockcore.SessionHex(c.session)), nil
}

// victim chooses whom Kill kills; d.mu must be held.
func (d *Demo) victim() *contender {
	var waiters, others []*contender
	for _, c := range d.contenders {
		switch {
		case c.lostReply:
		case c.phase == waiting && c.ticket >= 0:
			waiters = append(waiters, c)
		default:
			others = append(others, c)
		}
	}
	if len(waiters) > 0 {
		slices.SortFunc(waiters, func(a, b *contender) int { return cmp.Compare(a.ticket, b.ticket) })
		return waiters[len(waiters)/2]
	}
	// Rather a waiter whose place is not known yet, then a holder.
	slices.SortFunc(others, func(a, b *contender) int { return rank(a) - rank(b) })
	if len(others) > 0 {
		return others[0]
	}
	if len(d.contenders) > 0 {
		return d.contenders[0]
	}
	return nil
}

func rank(c *contender) int {
	switch c.phase {
	case waiting:
		return 0
	case holding:
		return 1
	}
	return 2
}

// Freeze stops the holder that has held longest from releasing, as a
// stuck client would: the lock stays held, and everyone else waits, until
// Unfreeze (or the holder's session ends). It returns a sentence naming
// the frozen holder, or ErrNoHolder when nobody holds.
func (d *Demo) Freeze() (string, error) {
	d.mu.Lock()
	var pick *contender
	for _, c := range d.contenders {
		if c.phase == holding && !c.frozen && (pick == nil || c.since.Before(pick.since)) {
			pick = c
		}
	}
	if pick == nil {
		d.mu.Unlock()
		return "", ErrNoHolder
	}
	pick.frozen, pick.thaw = true, make(chan struct{})
	ev := Event{Kind: Frozen, Contender: pick.id, Session: pick.session, Node: pick.node, Mode: pick.mode}
	d.mu.Unlock()
	d.emit(ev)
	return fmt.Sprintf("hung contender %d, holding %s (session %s): alive, never releasing", pick.id, model.ShortNode(path.Base(ev.Node)), lockcore.SessionHex(pick.session)), nil
}

// Unfreeze lets every frozen holder release. It returns ErrNoHolder when
// none is frozen.
func (d *Demo) Unfreeze() (string, error) {
	d.mu.Lock()
	var evs []Event
	for _, c := range d.contenders {
		if c.frozen {
			c.thawLocked()
			evs = append(evs, Event{Kind: Thawed, Contender: c.id, Session: c.session, Node: c.node, Mode: c.mode})
		}
	}
	d.mu.Unlock()
	if len(evs) == 0 {
		return "", ErrNoHolder
	}
	for _, ev := range evs {
		d.emit(ev)
	}
	if len(evs) == 1 {
		return "let 1 hung holder go", nil
	}
	return fmt.Sprintf("let %d hung holders go", len(evs)), nil
}

// LoseReply starts a contender whose first create's reply is lost, as
// after a connection loss: it creates its node with a plain create (no
// protection), then, not knowing it succeeded, creates again. The first
// node is an orphan ahead of the second in the same session; when it
// reaches the head of the queue nobody releases it, and the session waits
// for itself (a self-wait). The demo leaves the orphan until it is fenced
// (see FenceHint) or the demo ends.
func (d *Demo) LoseReply(ctx context.Context) (string, error) {
	c, err := d.add(ctx, true)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("contender %d lost a create reply and waits behind its own orphan (session %s)",
		c.id, lockcore.SessionHex(c.session)), nil
}

// Naive reports whether the demo runs the naive lock, whose LoseReply
// orphan is the lock node itself: a force-release frees it, not a fence.
func (d *Demo) Naive() bool { return d.cfg.Recipe == Naive }

// FenceHint says how to free the lock from a LoseReply orphan. In a fair
// lock the orphan is a self-wait that zklocks fence selects. In the naive
// lock the orphan is the lock node itself, held by a session that waits
// for it: from outside that looks like any holder (whose own watch on its
// node is how a careful client notices losing it), so it takes a forced
// release.
func (d *Demo) FenceHint() string {
	server := "--server " + d.cfg.Options.Target.String() + " "
	if d.cfg.Recipe == Naive {
		return "free it with zklocks release " + server + "--force " + d.lockPath
	}
	return "fence it with zklocks fence " + server + d.lockPath
}

// orphaned records c's orphan node and follows it until it goes.
func (d *Demo) orphaned(c *contender, node string, mode lockcore.Mode) {
	admin := d.admin.LockZK()
	_, stat, err := admin.Get(node)
	if err != nil {
		return
	}
	d.mu.Lock()
	d.orphans = append(d.orphans, node)
	d.mu.Unlock()
	d.emit(Event{Kind: Orphaned, Contender: c.id, Session: c.session, Node: node, Mode: mode})
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.followOrphan(admin, node, stat.Czxid)
		d.mu.Lock()
		if i := slices.Index(d.orphans, node); i >= 0 {
			d.orphans = slices.Delete(d.orphans, i, i+1)
		}
		d.mu.Unlock()
		if d.ctx.Err() == nil {
			d.emit(Event{Kind: OrphanGone, Contender: c.id, Session: c.session, Node: node, Mode: mode})
		}
	}()
}

// orphanPoll is how often the demo checks whether an orphan is gone. It
// reads without a watch, so that the admin session never shows in the
// servers' watch table as one more waiter.
const orphanPoll = 250 * time.Millisecond

// followOrphan returns when the node created as czxid is gone (the path
// may hold a newer node: the naive lock's path is reused), the admin
// session fails, or the demo ends.
func (d *Demo) followOrphan(admin lockclient.ZK, node string, czxid int64) {
	for {
		_, stat, err := admin.Get(node)
		if err != nil || stat.Czxid != czxid {
			return
		}
		select {
		case <-time.After(orphanPoll):
		case <-d.ctx.Done():
			return
		}
	}
}
