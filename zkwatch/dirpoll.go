package zkwatch

import (
	"context"
	"sort"
	"time"
)

// pollDirs lists the polled directories when each is due, until ctx ends.
func (w *Watcher) pollDirs(ctx context.Context) {
	tick := time.NewTicker(dirPollEvery / 10)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		var due []string
		w.mu.Lock()
		for d, ld := range w.dirs.watched {
			if ld.polled && !now.Before(ld.nextPoll) {
				due = append(due, d)
			}
		}
		w.mu.Unlock()
		for _, d := range due {
			w.dirChanged(ctx, d)
		}
	}
}

// describe fills in what d says of the directories watched and polled.
// The watcher's mu is held.
func (dw *dirWatches) describe(d *Discovery) {
	d.PolledDirs = nil
	d.WatchedDirs, d.PolledCount = 0, 0
	for p, ld := range dw.watched {
		if ld.polled {
			d.PolledCount++
			d.PolledDirs = append(d.PolledDirs, p)
		} else if ld.kind != dirNew {
			d.WatchedDirs++
		}
	}
	sort.Strings(d.PolledDirs)
	if len(d.PolledDirs) > polledNamed {
		d.PolledDirs = d.PolledDirs[:polledNamed]
	}
	d.WholeTree, d.TreeFull = dw.wholeTree, dw.treeFull
}
