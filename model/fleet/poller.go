package fleet

import (
	"context"
	"sync"
	"time"
)

// Probe reads one cluster once and returns its row. It must give up when
// ctx ends, and close whatever it opened before returning: between polls
// the Poller holds nothing on any cluster.
type Probe func(ctx context.Context, name string) Cluster

// DefaultInterval is how often a Poller polls each cluster.
const DefaultInterval = 30 * time.Second

// Poller polls every cluster again and again, each on its own, and keeps
// the last row of each. It polls nothing until Start; then every cluster
// at once, then each Interval after its last poll ended, until the
// context given to Start ends. Safe for concurrent use: several screens
// may read one Poller.
type Poller struct {
	names    []string
	probe    Probe
	interval time.Duration

	mu      sync.Mutex
	rows    map[string]Cluster
	changed chan struct{} // closed at the next change, then replaced
	started bool
	now     map[string]chan struct{} // a poll asked for now, by name
}

// NewPoller returns a Poller of the clusters names, read with probe every
// interval (DefaultInterval when not positive).
func NewPoller(names []string, probe Probe, interval time.Duration) *Poller {
	if interval <= 0 {
		interval = DefaultInterval
	}
	p := &Poller{names: names, probe: probe, interval: interval, rows: map[string]Cluster{},
		changed: make(chan struct{}), now: map[string]chan struct{}{}}
	for _, n := range names {
		p.rows[n] = Cluster{Name: n}
		p.now[n] = make(chan struct{}, 1)
	}
	return p
}

// Start starts polling, unless it has started already; it returns at
// once.
func (p *Poller) Start(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started {
		return
	}
	p.started = true
	for _, n := range p.names {
		go p.loop(ctx, n)
	}
}

// Started reports whether Start was called.
func (p *Poller) Started() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// Interval is the time between a cluster's polls.
func (p *Poller) Interval() time.Duration { return p.interval }

// Snapshot returns every cluster's last row, worst first, and a channel
// that is closed at the next change.
func (p *Poller) Snapshot() ([]Cluster, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rows := make([]Cluster, 0, len(p.rows))
	for _, n := range p.names {
		rows = append(rows, p.rows[n])
	}
	Sort(rows)
	return rows, p.changed
}

// PollNow asks for every cluster to be polled again without waiting for
// its interval; a cluster being polled is polled once more when done.
func (p *Poller) PollNow() {
	for _, n := range p.names {
		select {
		case p.now[n] <- struct{}{}:
		default:
		}
	}
}

// loop polls one cluster until ctx ends.
func (p *Poller) loop(ctx context.Context, name string) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.now[name]:
		}
		start := time.Now()
		row := p.probe(ctx, name)
		if ctx.Err() != nil {
			return
		}
		if row.At.IsZero() {
			row.At = time.Now()
		}
		if row.Took == 0 {
			row.Took = row.At.Sub(start)
		}
		p.set(row)
		t.Reset(p.interval)
	}
}

// set keeps row as its cluster's last, with the time its polls started
// failing, and tells the readers.
func (p *Poller) set(row Cluster) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev := p.rows[row.Name]
	if row.Reach != Reached {
		row.Down = row.At
		if prev.Reach != Reached && prev.Reach != Pending && !prev.Down.IsZero() {
			row.Down = prev.Down
		}
	}
	p.rows[row.Name] = row
	close(p.changed)
	p.changed = make(chan struct{})
}
