package exporter_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/internal/exporter"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// follower is what the live view knows, fed by one watcher: the model the
// UI shows and the exporter's series.
type follower struct {
	feed *watchtest.Feed
	exp  *exporter.Exporter
	reg  *prometheus.Registry
}

func follow(t *testing.T, connect string) *follower {
	t.Helper()
	conn := watchtest.Dial(t, connect, zkwatch.Options{SessionTimeout: 10 * time.Second})
	f := &follower{exp: exporter.New(exporter.Options{}), reg: prometheus.NewRegistry()}
	f.reg.MustRegister(f.exp)
	ctx, cancel := context.WithCancel(context.Background())
	f.feed = watchtest.Drain(zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{}).Events(), f.exp.Apply)
	t.Cleanup(func() { cancel(); <-f.feed.Done() })
	return f
}

// view is what the follower shows of the lock at path: whether the model
// lists it and its holder's session (0: free), and whether the exporter
// has its series and how many holders it says.
type view struct {
	listed        bool
	holder        int64
	series        bool
	seriesHolders float64
}

func (f *follower) view(t *testing.T, path string) view {
	t.Helper()
	var v view
	f.feed.Read(func(s *model.State) {
		l := s.Locks[path]
		if l == nil {
			return
		}
		v.listed = true
		for _, p := range l.Participants {
			if p.Role == "holder" {
				v.holder = p.Session
			}
		}
	})
	mfs, err := f.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "zklocks_lock_holders" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "path" && l.GetValue() == path {
					v.series, v.seriesHolders = true, m.GetGauge().GetValue()
				}
			}
		}
	}
	return v
}

// owner is the tree's truth: the session owning the plain lock node at
// path, 0 when there is none.
func owner(t *testing.T, c *zk.Conn, path string) int64 {
	t.Helper()
	_, stat, err := c.Exists(path)
	if err != nil {
		t.Fatal(err)
	}
	if stat == nil {
		return 0
	}
	return stat.EphemeralOwner
}

// lag is how long the view may differ from the tree before it counts as
// lost: a few round trips on a busy two-core machine, well under a hold.
const lag = 3 * time.Second

// The textbook plain ephemeral lock, raced by four kazoo sessions and by
// the naive demo's contenders (holds of 0.3–1.5 s), with the live view
// started while both cycle: the model lists each lock for the whole run
// and shows the holder the tree has (or none), and the exporter keeps
// each lock's series with the tree's holder count.
func TestIntegrationPlainLockRaceFollowsTheTree(t *testing.T) {
	zks := zktest.Start(t)
	admin := zks.Connect(t)
	const kazooLock = "/race/app/lock"
	race := peers.StartPlainRace(t, zks.Addr(), kazooLock, 4, 300*time.Millisecond, 1500*time.Millisecond)
	target, _ := zkwatch.ParseConnectString(zks.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	d, err := demo.Start(ctx, demo.Config{Options: zkwatch.Options{Target: target}, Recipe: demo.Naive, Contenders: 4})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	locks := []string{kazooLock, d.LockPath()}
	time.Sleep(2 * time.Second) // the view starts while the locks cycle

	f := follow(t, zks.Addr())
	deadline := time.Now().Add(20 * time.Second)
	for _, p := range locks {
		for v := f.view(t, p); !v.listed || !v.series; v = f.view(t, p) {
			if time.Now().After(deadline) {
				t.Fatalf("%s was never listed with its series, though its node comes and goes every second: %+v", p, v)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// Sample the tree and the view for 12 s: the view may lag, never lose.
	type drift struct{ model, export time.Time }
	since := map[string]*drift{}
	for _, p := range locks {
		since[p] = &drift{}
	}
	check := func(p string, now time.Time) {
		truth := owner(t, admin, p)
		v := f.view(t, p)
		if !v.listed || !v.series {
			t.Fatalf("%s: the view lost the lock (listed %v, series %v) while the tree has it cycling", p, v.listed, v.series)
		}
		dr := since[p]
		diverged := func(at *time.Time, differs bool, what string) {
			switch {
			case !differs:
				*at = time.Time{}
			case at.IsZero():
				*at = now
			case now.Sub(*at) > lag:
				t.Fatalf("%s: for over %v the %s differs from the tree (tree holder 0x%x; model holder 0x%x, series holders %v)",
					p, lag, what, truth, v.holder, v.seriesHolders)
			}
		}
		diverged(&dr.model, v.holder != truth, "model's holder")
		diverged(&dr.export, (v.seriesHolders == 1) != (truth != 0), "exporter's holder count")
	}
	for end := time.Now().Add(12 * time.Second); time.Now().Before(end); time.Sleep(25 * time.Millisecond) {
		for _, p := range locks {
			check(p, time.Now())
		}
	}
	grants := race.Grants()
	if grants < 8 {
		t.Fatalf("the kazoo race granted %d times in the run, too few to tell", grants)
	}

	// Once the races end, the tree has no node and the view says free.
	race.Stop()
	if err := d.Close(context.Background()); err != nil && !errors.Is(err, demo.ErrClosed) {
		t.Logf("demo close: %v", err)
	}
	deadline = time.Now().Add(20 * time.Second)
	for _, p := range locks {
		for {
			v := f.view(t, p)
			if owner(t, admin, p) == 0 && v.listed && v.holder == 0 && v.series && v.seriesHolders == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s after the race: tree holder 0x%x, view %+v", p, owner(t, admin, p), v)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("kazoo grants in the run: %d", grants)
}
