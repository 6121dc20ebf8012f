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

// followed is what the sampling knows of one lock: the holders the tree
// was seen with, the view's last holder and how often it changed, and how
// many times the tree's holder changed since the view last moved and since
// the exporter last agreed with it.
type followed struct {
	treeHolders     map[int64]bool
	viewHolders     map[int64]bool
	lastTree        int64
	lastView        int64
	viewChanges     int
	treeSinceView   int
	treeSinceExport int
}

// wantViewChanges is how many times the view must show a new holder of
// each lock before the sampling ends: enough to tell a view that follows
// from one that froze on a holder, and the kazoo race enough grants.
const wantViewChanges = 10

// stalled is how many changes of the tree's holder, one after the other,
// the view may miss before it counts as no longer following. The tree's
// changes are the measure, not the clock: a loaded machine slows the
// contenders' turns, the sampler and the watcher alike, and a view that
// lags stays within a change or two of the tree, where one that stopped
// falls behind without end.
const stalled = 20

// The textbook plain ephemeral lock, raced by four kazoo sessions and by
// the naive demo's contenders (holds of 0.3–1.5 s), with the live view
// started while both cycle: the model lists each lock for the whole run,
// its holder keeps changing as the tree's does, each holder it shows one
// the tree had, and the exporter keeps each lock's series; once the races
// stop, both say free as the tree does. How far behind the tree the view
// may be is the machine's speed, not the view's correctness: only a view
// that stops following fails.
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

	// Sample the tree and the view until the view has shown a new holder of
	// each lock several times: it may lag, never lose, and it follows.
	seen := map[string]*followed{}
	for _, p := range locks {
		seen[p] = &followed{treeHolders: map[int64]bool{}, viewHolders: map[int64]bool{}}
	}
	check := func(p string) {
		truth := owner(t, admin, p)
		v := f.view(t, p)
		if !v.listed || !v.series {
			t.Fatalf("%s: the view lost the lock (listed %v, series %v) while the tree has it cycling", p, v.listed, v.series)
		}
		if v.seriesHolders != 0 && v.seriesHolders != 1 {
			t.Fatalf("%s: the exporter says %v holders of a plain lock", p, v.seriesHolders)
		}
		fl := seen[p]
		if truth != 0 {
			fl.treeHolders[truth] = true
		}
		if truth != fl.lastTree {
			fl.lastTree = truth
			fl.treeSinceView++
			fl.treeSinceExport++
		}
		if v.holder != fl.lastView {
			fl.lastView = v.holder
			fl.treeSinceView = 0
			if v.holder != 0 {
				fl.viewChanges++
				fl.viewHolders[v.holder] = true
			}
		}
		if (v.seriesHolders == 1) == (truth != 0) {
			fl.treeSinceExport = 0
		}
		if fl.treeSinceView > stalled {
			t.Fatalf("%s: the view stopped following: the tree's holder changed %d times while the model kept holder 0x%x (tree holder 0x%x)",
				p, fl.treeSinceView, v.holder, truth)
		}
		if fl.treeSinceExport > stalled {
			t.Fatalf("%s: the exporter stopped following: the tree's holder changed %d times and its series never agreed (series holders %v, tree holder 0x%x)",
				p, fl.treeSinceExport, v.seriesHolders, truth)
		}
	}
	following := func() bool {
		for _, fl := range seen {
			if fl.viewChanges < wantViewChanges {
				return false
			}
		}
		return true
	}
	for ; !following(); time.Sleep(25 * time.Millisecond) {
		for _, p := range locks {
			check(p)
		}
	}
	// Every holder the view showed is a session the tree had as the
	// lock's owner: a contender holds many times in a run, so the sampler
	// sees each of them hold.
	for _, p := range locks {
		for h := range seen[p].viewHolders {
			if !seen[p].treeHolders[h] {
				t.Errorf("%s: the view showed holder 0x%x, which the tree never had (tree holders %x)", p, h, keys(seen[p].treeHolders))
			}
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
	deadline = time.Now().Add(watchtest.Wait)
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

func keys(m map[int64]bool) []int64 {
	var ks []int64
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
