package watch

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch"
)

const (
	// latencyCycles: each iteration creates and deletes this many
	// contenders for the watcher and as many for the raw watch, alternating.
	latencyCycles = 1000
	// maxLatencyRatio: the watcher's p99 may be at most this many times the
	// raw watch's.
	maxLatencyRatio = 2.0
	// rawParent is the raw watch's lock parent, outside the watched tree so
	// that its changes do not load the watcher.
	rawParent = "/raw"
	// seenTimeout is how long a change may take to show before the
	// benchmark fails.
	seenTimeout = 10 * time.Second
)

// snapshot is one event of the lock a latency sample changes: when it
// arrived and the contenders it lists.
type snapshot struct {
	at    time.Time
	names []string
}

// benchLatency times, for contenders another session creates and deletes,
// how long the watcher takes to emit the event that shows the change,
// against how long a plain go-zookeeper children watch on a lock of the
// same size takes to fire. The watcher watches the whole tree meanwhile.
func benchLatency(b *testing.B, env *benchEnv, r *benchReport) {
	parent := env.parents[0]
	makeRawParent(b, env)
	snaps := make(chan snapshot, 4096)
	lw := startWatcher(b, env, func(ev zkwatch.Event, at time.Time) {
		if ev.Kind != zkwatch.EventLock || ev.Path != parent {
			return
		}
		s := snapshot{at: at}
		for _, p := range ev.Lock.Participants {
			s.names = append(s.names, p.Node)
		}
		select {
		case snaps <- s:
		default:
			b.Error("latency: snapshots overflow")
		}
	})
	defer lw.stop()
	lw.awaitSettled(b)
	rw := &rawWatch{actor: env.actor, observer: benchConnect(b, env.zks.Addr())}

	var ours, raw []time.Duration
	for range b.N {
		for range latencyCycles {
			name, d := oursCreate(b, env.actor, parent, snaps)
			ours = append(ours, d)
			created, err := rw.create()
			if err != nil {
				b.Fatal(err)
			}
			raw = append(raw, created)
			ours = append(ours, oursDelete(b, env.actor, parent, name, snaps))
			deleted, err := rw.delete()
			if err != nil {
				b.Fatal(err)
			}
			raw = append(raw, deleted)
		}
	}
	o50, o99 := quantile(ours, 0.5), quantile(ours, 0.99)
	r50, r99 := quantile(raw, 0.5), quantile(raw, 0.99)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ms(o50), "p50-ms")
	b.ReportMetric(ms(o99), "p99-ms")
	b.ReportMetric(ms(r50), "raw-p50-ms")
	b.ReportMetric(ms(r99), "raw-p99-ms")
	n := fmt.Sprintf("%d changes", len(ours))
	r.compare("change→event latency p50, "+n, o50, r50, 0)
	r.compare("change→event latency p99, "+n, o99, r99, maxLatencyRatio)
}

// makeRawParent creates the raw watch's lock parent, unless an earlier
// round did, with as many contenders as the watcher's, owned by the same
// sessions.
func makeRawParent(tb testing.TB, env *benchEnv) {
	tb.Helper()
	_, err := env.actor.Create(rawParent, nil, 0, zk.WorldACL(zk.PermAll))
	if errors.Is(err, zk.ErrNodeExists) {
		return
	}
	if err != nil {
		tb.Fatalf("create %s: %v", rawParent, err)
	}
	for _, owner := range env.owners {
		if _, err := newContender(owner, rawParent); err != nil {
			tb.Fatal(err)
		}
	}
}

// oursCreate creates a contender in parent and returns its name and how
// long it took until the watcher's event listed it.
func oursCreate(tb testing.TB, actor *zk.Conn, parent string, snaps <-chan snapshot) (string, time.Duration) {
	tb.Helper()
	start := time.Now()
	name, err := newContender(actor, parent)
	if err != nil {
		tb.Fatal(err)
	}
	s := awaitSnapshot(tb, snaps, func(names []string) bool { return slices.Contains(names, name) })
	return name, s.at.Sub(start)
}

// oursDelete deletes parent's contender name and returns how long it took
// until the watcher's event no longer listed it.
func oursDelete(tb testing.TB, actor *zk.Conn, parent, name string, snaps <-chan snapshot) time.Duration {
	tb.Helper()
	start := time.Now()
	if err := actor.Delete(parent+"/"+name, -1); err != nil {
		tb.Fatal(err)
	}
	s := awaitSnapshot(tb, snaps, func(names []string) bool { return !slices.Contains(names, name) })
	return s.at.Sub(start)
}

// awaitSnapshot returns the first snapshot whose names satisfy ok. Events
// of one lock come in the order they were read, so the first such event
// after the change is the one that shows it.
func awaitSnapshot(tb testing.TB, snaps <-chan snapshot, ok func([]string) bool) snapshot {
	tb.Helper()
	deadline := time.After(seenTimeout)
	for {
		select {
		case s := <-snaps:
			if ok(s.names) {
				return s
			}
		case <-deadline:
			tb.Fatal("latency: the watcher never showed the change")
		}
	}
}

// rawWatch times plain go-zookeeper children watches on rawParent:
// observer watches, actor changes the children.
type rawWatch struct {
	actor, observer *zk.Conn
	name            string // the contender create made last
}

// create adds a contender and returns how long the watch took to fire.
func (r *rawWatch) create() (time.Duration, error) {
	return rawChange(r.observer, func() (err error) {
		r.name, err = newContender(r.actor, rawParent)
		return err
	})
}

// delete removes the contender create made and returns how long the
// watch took to fire.
func (r *rawWatch) delete() (time.Duration, error) {
	return rawChange(r.observer, func() error { return r.actor.Delete(rawParent+"/"+r.name, -1) })
}

// rawChange arms a children watch on rawParent from observer, makes the
// change, and returns how long after the change began the watch fired.
func rawChange(observer *zk.Conn, change func() error) (time.Duration, error) {
	_, _, ch, err := observer.ChildrenW(rawParent)
	if err != nil {
		return 0, err
	}
	fired := make(chan time.Time, 1)
	go func() {
		<-ch
		fired <- time.Now()
	}()
	start := time.Now()
	if err := change(); err != nil {
		return 0, err
	}
	select {
	case at := <-fired:
		return at.Sub(start), nil
	case <-time.After(seenTimeout):
		return 0, errors.New("the raw watch never fired")
	}
}
