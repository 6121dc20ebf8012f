package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// What the persistent watch tells goes through a filter and a bounded
// queue: a notification is a path and a type, and only a node created
// where a rule book entry or the fallback could make a lock of it (or of
// its parent) is looked at. The queue keeps one entry per directory, up to
// persistQueueMax; a flood past it is dropped and made up for by a re-read
// of the roots at the walk's pace, so that memory stays bounded whatever
// the rate.

// onPersistentEvent takes one notification, on the session's reading
// goroutine: it filters by path and name alone, without a request.
func (d *discoverer) onPersistentEvent(ev jute.WatcherEvent) {
	start := time.Now()
	ps := d.persist
	defer func() { ps.spent.Add(int64(time.Since(start))) }()
	ps.count.Add(1)
	if ev.Type != jute.EventNodeCreated {
		// A lock's release and a contender's leaving are its own watch's;
		// a deleted or changed node makes no new lock.
		return
	}
	node, ok := d.w.conn.rel(ev.Path)
	if !ok {
		return
	}
	dir := lockcore.ParentPath(node)
	if dir == node || !d.underRoots(dir) || !d.mayBeLock(dir, node) {
		return
	}
	ps.mu.Lock()
	if _, queued := ps.queue[dir]; !queued && len(ps.queue) >= ps.queueMax {
		ps.overflow = true
	} else {
		ps.queue[dir] = node
	}
	ps.mu.Unlock()
	select {
	case ps.wake <- struct{}{}:
	default:
	}
}

// mayBeLock reports whether node, just created in dir, could make a lock
// of dir (a contender's name by a rule book entry or the built-in shapes,
// a bare sequential name among them; a semaphore's part; a ClickHouse
// DDL task's host) or be one itself (a plain lock node by name or an
// application's election node), by the names alone.
func (d *discoverer) mayBeLock(dir, node string) bool {
	if _, ok := lockcore.DDLTaskOf(dir); ok {
		return true
	}
	if _, ok := lockcore.SemaphorePart(dir); ok {
		return true
	}
	book := d.w.cfg.Analysis.Book
	return d.contenderName(dir, lockcore.BaseName(node)) || book.IsLockNode(node) || lockcore.MaybeAppLockNode(node)
}

// persistentQueue looks at the directories queued as they come, and
// starts the re-read that makes up for an overflow, until ctx ends.
func (d *discoverer) persistentQueue(ctx context.Context) {
	ps := d.persist
	for {
		select {
		case <-ctx.Done():
			return
		case <-ps.wake:
		}
		ps.mu.Lock()
		batch, overflow := ps.queue, ps.overflow
		ps.queue, ps.overflow = make(map[string]string, min(len(batch), 64)), false
		if overflow {
			ps.desc.Overflows++
			ps.desc.OverflowAt = time.Now()
		}
		ps.mu.Unlock()
		if overflow {
			d.persistReread(ctx)
			d.emitDiscovery(ctx)
		}
		d.checkCreated(ctx, batch)
	}
}

// persistTick counts the last second's notifications and the time they
// took, and reports the discovery when those figures changed.
func (d *discoverer) persistTick(ctx context.Context) {
	ps := d.persist
	count, spent := ps.count.Load(), ps.spent.Load()
	ps.mu.Lock()
	rate, busy := int(count-ps.lastCount), time.Duration(spent-ps.lastSpent)
	changed := rate != ps.desc.Rate || ps.reread != nil
	ps.lastCount, ps.lastSpent = count, spent
	ps.desc.Rate, ps.desc.Busy = rate, busy
	ps.mu.Unlock()
	if changed {
		d.emitDiscovery(ctx)
	}
}

// checkCreated looks at each directory a node was created in, with the
// node: a lock parent is found as a dump's candidate is (listed, and
// asked of the rule book), a plain lock node by its own stat.
func (d *discoverer) checkCreated(ctx context.Context, batch map[string]string) {
	if len(batch) == 0 {
		return
	}
	d.w.mu.Lock()
	var todo [][2]string
	for dir, node := range batch {
		_, dirTracked := d.w.tracked.owner[dir]
		_, nodeTracked := d.w.tracked.owner[node]
		if dirTracked || nodeTracked || d.w.next.found[dir] || d.w.next.found[node] {
			continue
		}
		todo = append(todo, [2]string{dir, node})
	}
	d.w.mu.Unlock()
	work := d.w.newPool()
	for _, t := range todo {
		work.do(func() {
			if ctx.Err() == nil {
				d.checkCreatedOne(ctx, t[0], t[1])
			}
		})
	}
	work.run()
}

// checkCreatedOne looks at node, created in dir.
func (d *discoverer) checkCreatedOne(ctx context.Context, dir, node string) {
	_, ddl := lockcore.DDLTaskOf(dir)
	_, part := lockcore.SemaphorePart(dir)
	var err error
	switch {
	case ddl || part:
		err = d.checkCandidate(dir, d.foundLock)
	case d.contenderName(dir, lockcore.BaseName(node)):
		err = d.checkLock(dir)
	default:
		err = d.checkLock(node)
	}
	if err != nil {
		d.w.report(ctx, dir, err, false)
	}
}

// checkLock lists p and reports it as found when it is a lock.
func (d *discoverer) checkLock(p string) error {
	names, stat, err := d.w.list(p)
	if err != nil {
		return err
	}
	isLock, _, err := d.w.isLock(p, names, stat)
	if err == nil && isLock {
		d.foundLock(p)
	}
	return err
}

// persistReread walks the roots again at the walk's pace, unless such a
// walk is under way: what the watch may not have told (notifications
// dropped by an overflow, nodes created while its connection was down)
// is found by it.
func (d *discoverer) persistReread(ctx context.Context) {
	ps := d.persist
	ps.mu.Lock()
	if ps.reread != nil {
		// It may have passed the directory of what was dropped now.
		ps.rereadAgain = true
		ps.mu.Unlock()
		return
	}
	wk := newWalker(d.w, d.foundLock)
	ps.reread = wk
	ps.mu.Unlock()
	d.loops.Go(func() {
		for {
			if !wk.run(ctx, 0, newLimiter(d.walkRate(), 1)) {
				break
			}
			ps.mu.Lock()
			again := ps.rereadAgain
			ps.rereadAgain = false
			if again {
				wk = newWalker(d.w, d.foundLock)
				ps.reread = wk
			}
			ps.mu.Unlock()
			if !again {
				break
			}
		}
		ps.mu.Lock()
		ps.reread = nil
		ps.mu.Unlock()
		d.emitDiscovery(ctx)
	})
}
