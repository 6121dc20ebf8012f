package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// defaultPlainGrace is how long a plain lock whose node is gone stays
// listed by default.
const defaultPlainGrace = 5 * time.Minute

// trackAbsent keeps tracking a plain ephemeral lock whose node is gone: the
// textbook lock's node comes and goes with each holder, so the lock stays,
// free, with an exists watch on its path that fires when the next holder
// creates it. A node created meanwhile is read at once. A node gone for
// PlainGrace is reported gone.
func (w *Watcher) trackAbsent(ctx context.Context, path string, breaks int) error {
	exists, armed, err := w.existsW(path)
	if err != nil {
		return err
	}
	if exists && armed {
		// Created in between: the watch just armed fires when it goes.
		return w.track(ctx, path)
	}
	now, grace := time.Now(), w.plainGrace()
	w.mu.Lock()
	since := w.tracked.plain[path]
	first := since.IsZero()
	if first {
		since = now
		w.tracked.plain[path] = now
	}
	w.mu.Unlock()
	if now.Sub(since) >= grace {
		// The watch stays on the server until the node comes back or
		// the session ends: go-zookeeper cannot remove it.
		w.forget(ctx, path)
		return nil
	}
	if first {
		time.AfterFunc(grace, func() { w.recheckPlain(path) })
	}
	next := &lockcore.Tree{Path: path, Absent: true, ReadAt: now}
	w.store(ctx, next, []string{path}, breaks)
	return nil
}

// recheckPlain reads a plain lock again once its grace may have run out.
func (w *Watcher) recheckPlain(path string) {
	w.mu.Lock()
	_, plain := w.tracked.plain[path]
	if plain {
		w.next.found[path] = true
	}
	w.mu.Unlock()
	if plain {
		w.poke()
	}
}

func (w *Watcher) plainGrace() time.Duration {
	if w.cfg.PlainGrace > 0 {
		return w.cfg.PlainGrace
	}
	return defaultPlainGrace
}
