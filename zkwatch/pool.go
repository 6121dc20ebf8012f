package zkwatch

import "sync"

// pool runs jobs on at most the watcher's Concurrency goroutines: the
// caller of run and helpers started as jobs come, each ending when no job
// is left. A job may queue more jobs but must not wait for them.
type pool struct {
	limit   int
	mu      sync.Mutex
	queue   []func()
	running int  // goroutines taking jobs, the caller of run among them
	started bool // run was called: do starts helpers
	pending sync.WaitGroup
}

func (w *Watcher) newPool() *pool { return &pool{limit: w.cfg.Concurrency} }

// do queues job; once run was called, it starts a helper for it if fewer
// than limit goroutines take jobs.
func (p *pool) do(job func()) {
	p.pending.Add(1)
	p.mu.Lock()
	p.queue = append(p.queue, job)
	start := p.started && p.running < p.limit
	if start {
		p.running++
	}
	p.mu.Unlock()
	if start {
		go p.work()
	}
}

// run does the queued jobs, and every job they queue, and returns when all
// are done. The caller takes jobs too, so that a single job, such as one
// changed lock, runs without a goroutine of its own.
func (p *pool) run() {
	p.mu.Lock()
	p.started = true
	helpers := min(len(p.queue), p.limit) - 1
	p.running += 1 + max(helpers, 0)
	p.mu.Unlock()
	for range helpers {
		go p.work()
	}
	p.work()
	p.pending.Wait()
}

// work takes jobs until none is left.
func (p *pool) work() {
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.running--
			p.mu.Unlock()
			return
		}
		job := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.mu.Unlock()
		job()
		p.pending.Done()
	}
}
