package zkwatch

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// walker walks the roots for lock parents without setting any watch, at a
// bounded rate: the way to find locks whose contenders are all persistent,
// which no dump lists, and the only way where dump is refused. It keeps
// the paths still to be listed, depth first, and nothing of what it has
// passed, so its memory grows with the tree's depth and fan-out, not its
// size. A walker can stop after a number of reads and go on later.
type walker struct {
	w     *Watcher
	found func(path string) // a lock parent (or plain lock node) found

	mu      sync.Mutex
	stack   []walkItem
	running int // items being listed
	reads   int // requests sent so far
	started time.Time
	wake    chan struct{} // poked when an item ends
}

type walkItem struct {
	path  string
	depth int
	root  bool
}

// newWalker returns a walker over the watcher's roots.
func newWalker(w *Watcher, found func(string)) *walker {
	wk := &walker{w: w, found: found, started: time.Now(), wake: make(chan struct{}, 1)}
	for i := len(w.cfg.Roots) - 1; i >= 0; i-- {
		wk.stack = append(wk.stack, walkItem{path: w.cfg.Roots[i], root: true})
	}
	return wk
}

// Reads returns how many requests the walk has sent.
func (wk *walker) Reads() int {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	return wk.reads
}

// run walks until the tree is done (true), or until budget reads have been
// sent (0: no budget) and those in flight are back, or ctx ends (false).
// lim, if not nil, paces the reads. Up to the watcher's Concurrency items
// are listed at once.
func (wk *walker) run(ctx context.Context, budget int, lim *limiter) bool {
	workers := max(wk.w.cfg.Concurrency/4, 1)
	sem := make(chan struct{}, workers)
	for {
		wk.mu.Lock()
		over := budget > 0 && wk.reads >= budget
		if len(wk.stack) == 0 || over || ctx.Err() != nil {
			idle := wk.running == 0
			done := idle && len(wk.stack) == 0
			wk.mu.Unlock()
			if idle {
				return done && ctx.Err() == nil
			}
			select {
			case <-wk.wake:
			case <-ctx.Done():
			}
			continue
		}
		it := wk.stack[len(wk.stack)-1]
		wk.stack = wk.stack[:len(wk.stack)-1]
		wk.running++
		wk.reads++
		wk.mu.Unlock()
		if lim != nil && !lim.wait(ctx) {
			wk.finish(nil)
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wk.finish(nil)
			continue
		}
		go func() {
			defer func() { <-sem }()
			wk.finish(wk.visit(ctx, it))
		}()
	}
}

// finish ends an item, queueing the children it found.
func (wk *walker) finish(children []walkItem) {
	wk.mu.Lock()
	wk.running--
	for i := len(children) - 1; i >= 0; i-- {
		wk.stack = append(wk.stack, children[i])
	}
	wk.mu.Unlock()
	select {
	case wk.wake <- struct{}{}:
	default:
	}
}

// visit lists one node without a watch and returns its children to walk,
// or none when it is a lock (reported to found) or a leaf.
func (wk *walker) visit(ctx context.Context, it walkItem) []walkItem {
	w := wk.w
	if it.path == systemTree || strings.HasPrefix(it.path, systemTree+"/") {
		return nil
	}
	names, stat, err := w.list(it.path)
	if err != nil {
		w.report(ctx, it.path, err, it.root)
		return nil
	}
	isLock, probed, err := w.isLock(it.path, names, stat)
	wk.count(len(probed))
	if err != nil {
		w.report(ctx, it.path, err, false)
		return nil
	}
	if isLock {
		wk.found(it.path)
		names = lockcore.NestedDirs(names)
	}
	if w.cfg.MaxDepth > 0 && it.depth >= w.cfg.MaxDepth {
		return nil
	}
	out := make([]walkItem, len(names))
	for i, n := range names {
		out[i] = walkItem{path: lockcore.JoinPath(it.path, n), depth: it.depth + 1}
	}
	return out
}

// count adds reads made besides the listing.
func (wk *walker) count(n int) {
	if n == 0 {
		return
	}
	wk.mu.Lock()
	wk.reads += n
	wk.mu.Unlock()
}

// limiter paces requests to a rate, allowing a burst: a token bucket.
type limiter struct {
	every time.Duration // one token per every
	burst int
	now   func() time.Time
	sleep func(context.Context, time.Duration) bool

	mu     sync.Mutex
	tokens float64
	last   time.Time
}

// newLimiter allows perSecond requests a second after a first burst. The
// bucket holds at least a nap's worth, so that napping loses no rate.
func newLimiter(perSecond, burst int) *limiter {
	perSecond = max(perSecond, 1)
	burst = max(burst, perSecond*int(limiterNap/time.Millisecond)/1000, 1)
	return &limiter{every: time.Second / time.Duration(perSecond), burst: burst, tokens: float64(burst), last: time.Now(),
		now: time.Now, sleep: sleepCtx}
}

// sleepCtx sleeps for d; false if ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// limiterNap is the least a paced request sleeps: requests then go out in
// small bursts, which costs far fewer wake-ups than one at a time.
const limiterNap = 50 * time.Millisecond

// wait takes a token, sleeping until one is there; false if ctx ends first.
func (l *limiter) wait(ctx context.Context) bool {
	l.mu.Lock()
	now := l.now()
	l.tokens = min(float64(l.burst), l.tokens+float64(now.Sub(l.last))/float64(l.every))
	l.last = now
	l.tokens--
	short := -l.tokens
	l.mu.Unlock()
	if short <= 0 {
		return true
	}
	return l.sleep(ctx, max(time.Duration(short*float64(l.every)), limiterNap))
}
