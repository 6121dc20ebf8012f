// Package bigtree builds a production-sized ZooKeeper tree for tests and
// benchmarks: plain znodes laid out like a Kafka cluster's metadata, lock
// parents with Curator contenders owned by separate sessions (each waiter
// watching its predecessor, as Curator's mutex does), ephemeral service
// registrations that are not locks, locks whose only contender is a
// persistent node left by a crashed client, and data watches held by other
// sessions. Creates are pipelined in multi batches, so a million znodes take
// a minute or two on a small machine.
package bigtree

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
)

// Spec says what to build.
type Spec struct {
	// Plain is about how many plain znodes to create (topics, partitions
	// and their state, each with a little JSON).
	Plain int
	// Locks is the number of lock parents, spread over groups of 100 under
	// /app/locks, and Contenders the Curator contenders in each, one per
	// contender session.
	Locks, Contenders int
	// Services is the number of ephemeral service registrations under
	// /services: ephemeral nodes whose parents are not locks.
	Services int
	// Stale is the number of locks under /app/stale whose only contender
	// is persistent (no session owns it): only a walk can find them.
	Stale int
	// ForeignWatches is how many data watches other sessions hold on plain
	// znodes, spread over two sessions.
	ForeignWatches int
}

// Tree is a built tree with the sessions that keep its ephemeral nodes and
// watches alive.
type Tree struct {
	// LockPaths are the lock parents with contenders, in creation order.
	LockPaths []string
	// StalePaths are the lock parents whose contender is persistent.
	StalePaths []string
	// Znodes counts every znode created.
	Znodes int
	// Watches counts the data watches the tree's sessions hold (waiters on
	// their predecessors, and the foreign watches).
	Watches int

	sessions []*zk.Conn
}

// Close ends every session of the tree: its ephemeral nodes and watches go.
func (t *Tree) Close() {
	for _, c := range t.sessions {
		c.Close()
	}
}

// Session returns one of the tree's contender sessions, for changes a test
// or benchmark makes.
func (t *Tree) Session() *zk.Conn { return t.sessions[0] }

// partitionsPerTopic makes each topic 2+2×48 = 98 znodes.
const partitionsPerTopic = 48

// batch is how many creates go in one multi.
const batch = 500

// pipelineDepth is how many requests each session keeps in flight.
const pipelineDepth = 32

// Build creates spec's tree on the servers and returns it with its
// sessions open. logf, if not nil, reports progress.
func Build(ctx context.Context, servers []string, spec Spec, logf func(string, ...any)) (*Tree, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	t := &Tree{}
	admin, err := t.connect(ctx, servers)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	for _, p := range []string{"/kafka", "/kafka/brokers", "/kafka/brokers/topics", "/app", "/app/locks", "/app/stale", "/services"} {
		if err := t.createAll(ctx, admin, []string{p}, nil, 0); err != nil {
			t.Close()
			return nil, err
		}
	}
	plain, err := t.buildPlain(ctx, admin, spec.Plain)
	if err != nil {
		t.Close()
		return nil, err
	}
	logf("bigtree: %d plain znodes in %v", t.Znodes, time.Since(start).Round(time.Millisecond))
	if err := t.buildLocks(ctx, servers, admin, spec); err != nil {
		t.Close()
		return nil, err
	}
	if err := t.buildServices(ctx, servers, admin, spec.Services); err != nil {
		t.Close()
		return nil, err
	}
	logf("bigtree: %d lock parents × %d contenders, %d services, %d stale locks; %d znodes in %v",
		spec.Locks, spec.Contenders, spec.Services, spec.Stale, t.Znodes, time.Since(start).Round(time.Millisecond))
	if err := t.watchForeign(ctx, servers, plain, spec.ForeignWatches); err != nil {
		t.Close()
		return nil, err
	}
	logf("bigtree: %d watches held in all, after %v", t.Watches, time.Since(start).Round(time.Millisecond))
	return t, nil
}

// buildPlain creates about n plain znodes and returns the paths the foreign
// watches may watch: partition states, then partitions.
func (t *Tree) buildPlain(ctx context.Context, c *zk.Conn, n int) ([]string, error) {
	topics := max(n/(2+2*partitionsPerTopic), 1)
	var level1, level2, level3, leaves []string
	for i := range topics {
		topic := fmt.Sprintf("/kafka/brokers/topics/topic-%05d", i)
		level1 = append(level1, topic)
		level2 = append(level2, topic+"/partitions")
		for p := range partitionsPerTopic {
			part := fmt.Sprintf("%s/partitions/%d", topic, p)
			level3 = append(level3, part)
			leaves = append(leaves, part+"/state")
		}
	}
	data := []byte(`{"controller_epoch":7,"leader":2,"version":1,"leader_epoch":3,"isr":[2,0,1]}`)
	for _, level := range [][]string{level1, level2, level3, leaves} {
		if err := t.createAll(ctx, c, level, data, 0); err != nil {
			return nil, err
		}
	}
	// Partitions can be watched too: two sessions' watches on a million
	// znodes need more paths than the states alone.
	return append(leaves, level3...), nil
}

// createAll creates paths (whose parents exist) in multi batches, many in
// flight at once. Ephemeral nodes (flags) need c's session as it was: one
// that expired meanwhile is errSessionLost.
func (t *Tree) createAll(ctx context.Context, c *zk.Conn, paths []string, data []byte, flags int32) error {
	sid := int64(anySession)
	if flags&zk.FlagEphemeral != 0 {
		sid = c.SessionID()
	}
	var batches [][]string
	for rest := paths; len(rest) > 0; {
		n := min(batch, len(rest))
		batches = append(batches, rest[:n])
		rest = rest[n:]
	}
	err := pipeline(ctx, batches, func(b []string) error { return create(ctx, c, sid, b, data, flags) })
	if err == nil {
		t.count(len(paths), 0)
	}
	return err
}

// create makes paths in one multi. A multi cut off by a lost connection
// is made again once the session is back: it made every node or none, so
// a retry that finds a node there finds the multi done (the tree's
// sessions are its only writers, and each path is in one multi).
func create(ctx context.Context, c *zk.Conn, sid int64, paths []string, data []byte, flags int32) error {
	ops := make([]any, len(paths))
	for i, p := range paths {
		ops[i] = &zk.CreateRequest{Path: p, Data: data, Acl: zk.WorldACL(zk.PermAll), Flags: flags}
	}
	again := false
	err := resume(ctx, c, sid, func() error {
		res, err := c.Multi(ops...)
		err = multiErr(res, err)
		if again && errors.Is(err, zk.ErrNodeExists) {
			return nil
		}
		again = true
		return err
	})
	if err != nil {
		return fmt.Errorf("bigtree: create %s and %d more: %w", paths[0], len(paths)-1, err)
	}
	return nil
}

// multiErr is a multi's error: the request's, or the first of its
// operations' when the request's says nothing.
func multiErr(res []zk.MultiResponse, err error) error {
	for _, r := range res {
		if err == nil && r.Error != nil {
			err = r.Error
		}
	}
	return err
}

var countMu sync.Mutex

func (t *Tree) count(znodes, watches int) {
	countMu.Lock()
	t.Znodes += znodes
	t.Watches += watches
	countMu.Unlock()
}

// pipeline runs do for every item from pipelineDepth goroutines; the first
// error stops the rest.
func pipeline[T any](ctx context.Context, items []T, do func(T) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	work := make(chan T)
	var wg sync.WaitGroup
	for range pipelineDepth {
		wg.Go(func() {
			for it := range work {
				if ctx.Err() == nil {
					if err := do(it); err != nil {
						cancel(err)
					}
				}
			}
		})
	}
feed:
	for _, it := range items {
		select {
		case work <- it:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	return context.Cause(ctx)
}

// connect opens a session that the tree keeps until Close.
func (t *Tree) connect(ctx context.Context, servers []string) (*zk.Conn, error) {
	c, events, err := zk.Connect(servers, sessionTimeout, zk.WithLogger(quiet{}))
	if err != nil {
		return nil, fmt.Errorf("bigtree: connect: %w", err)
	}
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				go func() {
					for range events {
					}
				}()
				t.sessions = append(t.sessions, c)
				return c, nil
			}
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("bigtree: no session from %s: %w", strings.Join(servers, ","), ctx.Err())
		}
	}
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// errNoSpec is returned for a spec that would build nothing useful.
var errNoSpec = errors.New("bigtree: a spec needs at least one lock and one contender")
