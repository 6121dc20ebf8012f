package zkwatch

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// syncState is the sync markers: discover asks for one (askSync) and
// waits; run reports it once a round has tracked every lock found before
// it was asked (finishSync), with the locks of the last sync that were
// not found again reported gone, and closes first at the first one, which
// fillLoop waits for. run notes the locks of the last sync as a sync
// begins (beginSync, at the start and after an expiry).
type syncState struct {
	waiters   []chan struct{} // asked, each closed once reported
	before    map[string]bool // locks of the last sync, until the next
	first     chan struct{}   // closed when the first sync is reported
	firstOnce sync.Once
}

// beginSync forgets what was read, after a session expiry or at the start,
// and starts discovery afresh; the locks not found again are reported gone
// at the next sync marker.
func (w *Watcher) beginSync(ctx context.Context) {
	w.mu.Lock()
	w.discovery.reset()
	for p := range w.tracked.locks {
		w.syncs.before[p] = true
	}
	w.tracked.locks, w.tracked.owner = map[string]*lockcore.Tree{}, map[string]string{}
	w.toFill.unread, w.toFill.total, w.toFill.dumpOwners = map[string]int{}, 0, nil
	// A new session holds none of the old one's watches.
	w.next.found, w.watches.armed = map[string]bool{}, map[string]bool{}
	for p := range w.tracked.plain {
		// Tracked again even if their node is gone just now.
		w.next.found[p] = true
	}
	w.next.takeUnread(w.next.found)
	dctx, cancel := context.WithCancel(ctx)
	w.discovery.stop = cancel
	w.mu.Unlock()
	w.discovery.loops.Go(func() { w.discovery.discover(dctx) })
}

// askSync asks the watcher's loop to report a sync once it has tracked
// every lock found so far, and waits until it has.
func (w *Watcher) askSync(ctx context.Context) {
	done := make(chan struct{})
	w.mu.Lock()
	w.syncs.waiters = append(w.syncs.waiters, done)
	w.mu.Unlock()
	w.poke()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// finishSync reports the locks gone since the last sync began and the
// sync itself, then releases those waiting for it. The loop calls it after
// a round that tracked everything found before the sync was asked.
func (w *Watcher) finishSync(ctx context.Context, waiters []chan struct{}) {
	w.mu.Lock()
	var gone []string
	for p := range w.syncs.before {
		if w.tracked.locks[p] == nil {
			gone = append(gone, p)
			delete(w.tracked.seen, p)
		}
	}
	w.syncs.before = map[string]bool{}
	// The dump's owners serve the first listing of the locks it named,
	// all tracked by now.
	w.toFill.dumpOwners = nil
	w.mu.Unlock()
	disc := w.Discovery()
	sort.Strings(gone)
	for _, p := range gone {
		w.emit(ctx, Event{Kind: EventLockGone, At: time.Now(), Path: p})
	}
	w.emit(ctx, Event{Kind: EventSynced, At: time.Now(), Discovery: disc})
	w.syncs.firstOnce.Do(func() { close(w.syncs.first) })
	for _, ch := range waiters {
		close(ch)
	}
}
