package exporter

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

var t0 = time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)

// mutex is a Curator mutex at path whose contenders are the sessions
// given, in queue order: the first holds.
func mutex(path string, held time.Duration, sessions ...int64) *lockcore.Lock {
	l := &lockcore.Lock{Path: path, Recipe: lockcore.RecipeCuratorMutex}
	if len(sessions) == 0 {
		l.Recipe = lockcore.RecipeEmpty
	}
	for i, s := range sessions {
		p := lockcore.Participant{Node: node(s), Path: path + "/" + node(s), Recipe: lockcore.RecipeCuratorMutex, Seq: s, HasSeq: true,
			Mode: lockcore.ModeExclusive, Role: lockcore.RoleWaiter, Position: i, Session: s, Ephemeral: true, Token: s}
		if i == 0 {
			p.Role, p.Age = lockcore.RoleHolder, held
			p.Hold = lockcore.Hold{How: lockcore.HoldCreated, Min: held, Max: held}
		}
		l.Participants = append(l.Participants, p)
	}
	return l
}

func node(s int64) string {
	return "_c_0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d-lock-000000000" + string(rune('0'+s))
}

// feed is an exporter through its first sync with the locks given.
func feed(t *testing.T, opts Options, locks ...*lockcore.Lock) (*Exporter, *time.Time) {
	t.Helper()
	now := t0
	opts.Now = func() time.Time { return now }
	e := New(opts)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: now, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: now}})
	for _, l := range locks {
		e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: now, Path: l.Path, Lock: l})
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: now, Discovery: zkwatch.Discovery{Complete: true, Watching: len(locks)}})
	return e, &now
}

func TestLockMetrics(t *testing.T) {
	stuck := mutex("/locks/orders", 0, 1, 2, 3)
	stuck.Participants[0].Role = lockcore.RoleWaiter
	stuck.Anomalies = []lockcore.Anomaly{{Kind: lockcore.AnomalyWaitCycle}, {Kind: lockcore.AnomalyUnwatchedWaiter}, {Kind: lockcore.AnomalyUnwatchedWaiter}}
	e, _ := feed(t, Options{}, mutex("/locks/billing", 90*time.Second, 4, 5), stuck)
	want := `
# HELP zklocks_lock_holders Participants holding the lock (leases, for a semaphore), as of the watcher's last reading.
# TYPE zklocks_lock_holders gauge
zklocks_lock_holders{path="/locks/billing",recipe="curator-mutex"} 1
zklocks_lock_holders{path="/locks/orders",recipe="curator-mutex"} 0
# HELP zklocks_lock_waiters Participants waiting for the lock, counting the hidden waiters of a plain lock node.
# TYPE zklocks_lock_waiters gauge
zklocks_lock_waiters{path="/locks/billing",recipe="curator-mutex"} 1
zklocks_lock_waiters{path="/locks/orders",recipe="curator-mutex"} 3
# HELP zklocks_lock_oldest_hold_seconds The longest hold known among the lock's holders, from their grants (a hold whose grant is not known counts for its lower bound only, often 0); 0 with no holder.
# TYPE zklocks_lock_oldest_hold_seconds gauge
zklocks_lock_oldest_hold_seconds{path="/locks/billing",recipe="curator-mutex"} 90
zklocks_lock_oldest_hold_seconds{path="/locks/orders",recipe="curator-mutex"} 0
# HELP zklocks_lock_oldest_hold_at_most_seconds The longest the lock's holders may have held: each hold's upper bound, the node's age where the grant is not known; 0 with no holder.
# TYPE zklocks_lock_oldest_hold_at_most_seconds gauge
zklocks_lock_oldest_hold_at_most_seconds{path="/locks/billing",recipe="curator-mutex"} 90
zklocks_lock_oldest_hold_at_most_seconds{path="/locks/orders",recipe="curator-mutex"} 0
# HELP zklocks_lock_anomalies Anomalies the analysis found in the lock, by kind (wait-cycle, unwatched-waiter, ...).
# TYPE zklocks_lock_anomalies gauge
zklocks_lock_anomalies{kind="unwatched-waiter",path="/locks/orders",recipe="curator-mutex"} 2
zklocks_lock_anomalies{kind="wait-cycle",path="/locks/orders",recipe="curator-mutex"} 1
# HELP zklocks_up 1 while the exporter's ZooKeeper session is connected and its picture confirmed by a sync; 0 while it connects, reconnects or re-syncs.
# TYPE zklocks_up gauge
zklocks_up 1
# HELP zklocks_folded_locks Locks without series of their own (past --max-locks or not matching --path), counted in the zklocks_folded_* totals.
# TYPE zklocks_folded_locks gauge
zklocks_folded_locks 0
# HELP zklocks_discovery_complete 1 when a walk of the whole tree has ended since the last (re)sync, so every lock is known; 0 while locks whose contenders are all persistent may be missing.
# TYPE zklocks_discovery_complete gauge
zklocks_discovery_complete 1
# HELP zklocks_watches Watches the exporter holds on the servers.
# TYPE zklocks_watches gauge
zklocks_watches 2
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(want), "zklocks_lock_holders", "zklocks_lock_waiters",
		"zklocks_lock_oldest_hold_seconds", "zklocks_lock_oldest_hold_at_most_seconds", "zklocks_lock_anomalies", "zklocks_up", "zklocks_folded_locks",
		"zklocks_discovery_complete", "zklocks_watches"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.CollectAndLint(e); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// TestDeniedPaths: the paths denied to the exporter's session are
// counted, 0 when none: what lies below them is not known.
func TestDeniedPaths(t *testing.T) {
	e, _ := feed(t, Options{}, mutex("/locks/billing", time.Second, 4))
	denied := func(n int) string {
		return fmt.Sprintf(`
# HELP zklocks_denied_paths Paths whose ACL denies the exporter's session: not searched, so locks below them are not known (0 when none).
# TYPE zklocks_denied_paths gauge
zklocks_denied_paths %d
`, n)
	}
	if err := testutil.CollectAndCompare(e, strings.NewReader(denied(0)), "zklocks_denied_paths"); err != nil {
		t.Error(err)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventDenied, At: t0, Path: "/secret", Err: zk.ErrNoAuth})
	if err := testutil.CollectAndCompare(e, strings.NewReader(denied(1)), "zklocks_denied_paths"); err != nil {
		t.Error(err)
	}
}

func TestCountersAndHistograms(t *testing.T) {
	e, now := feed(t, Options{}, mutex("/locks/a", time.Second, 1))
	step := func(d time.Duration, l *lockcore.Lock) {
		*now = now.Add(d)
		e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: *now, Path: l.Path, Lock: l})
	}
	step(time.Second, mutex("/locks/a", 2*time.Second, 1, 2)) // 2 joins
	step(3*time.Second, mutex("/locks/a", 0, 2))              // 1 released (hold unknown: held before the sync), 2 granted after 3 s
	step(5*time.Second, mutex("/locks/a", 0))                 // 2 released after 5 s: the lock is empty
	labels := []string{"/locks/a", "curator-mutex"}
	if got := value(t, e, "zklocks_lock_grants_total", labels); got != 1 {
		t.Errorf("grants %v, want 1", got)
	}
	if got := value(t, e, "zklocks_lock_releases_total", labels); got != 2 {
		t.Errorf("releases %v, want 2", got)
	}
	want := `
# HELP zklocks_wait_seconds Time from a contender joining a lock's queue to its grant, by recipe (contenders seen joining only).
# TYPE zklocks_wait_seconds histogram
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.001"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.005"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.01"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.05"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.1"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="0.5"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="1"} 0
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="5"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="10"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="30"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="60"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="300"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="900"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="3600"} 1
zklocks_wait_seconds_bucket{recipe="curator-mutex",le="+Inf"} 1
zklocks_wait_seconds_sum{recipe="curator-mutex"} 3
zklocks_wait_seconds_count{recipe="curator-mutex"} 1
# HELP zklocks_hold_seconds Time from a grant to the holder's release, by recipe (grants seen only).
# TYPE zklocks_hold_seconds histogram
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.001"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.005"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.01"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.05"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.1"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="0.5"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="1"} 0
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="5"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="10"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="30"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="60"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="300"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="900"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="3600"} 1
zklocks_hold_seconds_bucket{recipe="curator-mutex",le="+Inf"} 1
zklocks_hold_seconds_sum{recipe="curator-mutex"} 5
zklocks_hold_seconds_count{recipe="curator-mutex"} 1
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(want), "zklocks_wait_seconds", "zklocks_hold_seconds"); err != nil {
		t.Error(err)
	}
	// The empty lock keeps its recipe label, so its series do not change.
	if got := value(t, e, "zklocks_lock_holders", labels); got != 0 {
		t.Errorf("holders of the empty lock %v", got)
	}
	*now = now.Add(time.Second)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventLockGone, At: *now, Path: "/locks/a"})
	if n := testutil.CollectAndCount(e, "zklocks_lock_holders", "zklocks_lock_grants_total"); n != 0 {
		t.Errorf("a lock gone keeps %d series", n)
	}
}

func TestCardinalityGuard(t *testing.T) {
	e, now := feed(t, Options{MaxLocks: 2, Paths: []*regexp.Regexp{regexp.MustCompile(`^/locks/`)}},
		mutex("/locks/a", time.Second, 1, 2), mutex("/other/x", time.Second, 3), mutex("/locks/b", time.Second, 4),
		mutex("/locks/c", time.Second, 5, 6, 7))
	if n := testutil.CollectAndCount(e, "zklocks_lock_holders"); n != 2 {
		t.Errorf("%d locks with series, want 2", n)
	}
	want := `
# HELP zklocks_folded_locks Locks without series of their own (past --max-locks or not matching --path), counted in the zklocks_folded_* totals.
# TYPE zklocks_folded_locks gauge
zklocks_folded_locks 2
# HELP zklocks_folded_holders Holders of the folded locks, in all.
# TYPE zklocks_folded_holders gauge
zklocks_folded_holders 2
# HELP zklocks_folded_waiters Waiters of the folded locks, in all.
# TYPE zklocks_folded_waiters gauge
zklocks_folded_waiters 2
# HELP zklocks_locks Locks known under the roots, folded or not.
# TYPE zklocks_locks gauge
zklocks_locks 4
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(want), "zklocks_folded_locks", "zklocks_folded_holders", "zklocks_folded_waiters", "zklocks_locks"); err != nil {
		t.Error(err)
	}
	// A grant in a folded lock counts in the folded total.
	*now = now.Add(time.Second)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: *now, Path: "/locks/c", Lock: mutex("/locks/c", 0, 6, 7)})
	if got := value(t, e, "zklocks_folded_grants_total", nil); got != 1 {
		t.Errorf("folded grants %v, want 1", got)
	}
	// A slot freed goes to the next folded lock that changes, which then
	// counts from zero.
	e.Apply(zkwatch.Event{Kind: zkwatch.EventLockGone, At: *now, Path: "/locks/a"})
	*now = now.Add(time.Second)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: *now, Path: "/locks/c", Lock: mutex("/locks/c", 0, 7)})
	if got := value(t, e, "zklocks_lock_grants_total", []string{"/locks/c", "curator-mutex"}); got != 1 {
		t.Errorf("grants of the newly admitted lock %v, want 1", got)
	}
	if got := value(t, e, "zklocks_folded_grants_total", nil); got != 1 {
		t.Errorf("folded grants %v, want still 1", got)
	}
}

func TestUpAndSyncAge(t *testing.T) {
	e, now := feed(t, Options{}, mutex("/locks/a", time.Second, 1))
	*now = now.Add(30 * time.Second)
	if got := value(t, e, "zklocks_last_sync_age_seconds", nil); got != 30 {
		t.Errorf("sync age %v, want 30", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Since: *now}})
	if got := value(t, e, "zklocks_up", nil); got != 0 {
		t.Errorf("up while disconnected %v", got)
	}
	*now = now.Add(time.Second)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: *now}})
	if got := value(t, e, "zklocks_up", nil); got != 0 {
		t.Errorf("up after a reconnect, before the re-sync: %v", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: *now})
	if got := value(t, e, "zklocks_up", nil); got != 1 {
		t.Errorf("up after the re-sync: %v", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: *now, Cost: []words.MemberCost{{Member: "127.0.0.1:2181", Bytes: 2048, Time: 30 * time.Millisecond}}})
	if got := value(t, e, "zklocks_fourletter_bytes_last_minute", []string{"127.0.0.1:2181"}); got != 2048 {
		t.Errorf("four-letter bytes %v", got)
	}

	srv := httptest.NewServer(e.Handler(e.Registry()))
	defer srv.Close()
	for path, want := range map[string]string{"/healthz": "ok: connected, 1 locks", "/metrics": "zklocks_up 1"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body := new(strings.Builder)
		_, _ = io.Copy(body, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(body.String(), want) {
			t.Errorf("GET %s: %d %q, want %q", path, resp.StatusCode, body, want)
		}
	}
}

// value is the value of e's metric name with the label values given (in
// the order of their label names), failing the test when there is none.
func value(t *testing.T, e *Exporter, name string, labels []string) float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) != len(labels) {
				continue
			}
			for i, l := range m.GetLabel() {
				if l.GetValue() != labels[i] {
					continue metrics
				}
			}
			switch {
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Counter != nil:
				return m.Counter.GetValue()
			}
		}
	}
	t.Fatalf("no %s%v", name, labels)
	return 0
}

// The oldest waiter's wait is exact (from its node's creation) and grows
// with the clock while the picture is current; folded locks give their
// longest, leader elections aside.
func TestOldestWaitMetric(t *testing.T) {
	queue := mutex("/locks/orders", 0, 1, 2, 3)
	queue.ReadAt = t0
	queue.Participants[1].Age, queue.Participants[2].Age = 6*time.Minute, 2*time.Minute
	latch := mutex("/election/leader", 0, 4, 5)
	latch.Recipe, latch.ReadAt = lockcore.RecipeCuratorLeaderLatch, t0
	latch.Participants[1].Age = time.Hour
	folded := mutex("/other/queue", 0, 6, 7)
	folded.ReadAt = t0
	folded.Participants[1].Age = 3 * time.Minute
	e, now := feed(t, Options{Paths: []*regexp.Regexp{regexp.MustCompile("^/(locks|election)/")}}, queue, latch, folded)
	*now = t0.Add(30 * time.Second)
	labels := []string{"/locks/orders", "curator-mutex"}
	if got := value(t, e, "zklocks_lock_oldest_wait_seconds", labels); got != 390 {
		t.Errorf("oldest wait %v s, want 390 (6m at the read, 30 s since)", got)
	}
	if got := value(t, e, "zklocks_lock_oldest_wait_seconds", []string{"/election/leader", "curator-leaderlatch"}); got != 3630 {
		t.Errorf("an election's candidate wait %v s, want it given as is (3630)", got)
	}
	if got := value(t, e, "zklocks_folded_oldest_wait_seconds", nil); got != 210 {
		t.Errorf("folded oldest wait %v s, want 210", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Since: *now}})
	*now = t0.Add(5 * time.Minute)
	if got := value(t, e, "zklocks_lock_oldest_wait_seconds", labels); got != 360 {
		t.Errorf("stale picture: oldest wait %v s, want 360 as last read", got)
	}
}

// /healthz says how long the session has been away first, not only the
// age of the last sync, which reads as a healthy exporter.
func TestHealthSaysHowLongDisconnected(t *testing.T) {
	e, now := feed(t, Options{}, mutex("/locks/a", time.Second, 1))
	*now = t0.Add(5*time.Minute + 40*time.Second)
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Since: *now}})
	*now = now.Add(2 * time.Second)
	want := "ok: disconnected for 2s (since 14:05:40); the metrics are as of the last sync, 5m42s ago"
	if got := e.health(); got != want {
		t.Errorf("health %q, want %q", got, want)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Expired, Since: *now}})
	*now = now.Add(time.Minute)
	if got := e.health(); !strings.HasPrefix(got, "ok: expired for 1m00s (since 14:05:42)") {
		t.Errorf("health %q", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: *now, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: *now}})
	if got := e.health(); !strings.HasPrefix(got, "ok: connected, re-syncing; last sync 6m42s ago") {
		t.Errorf("health %q", got)
	}
}

// A contender not read yet counts in no hold or wait (its zero age is not
// a measurement) and in zklocks_contenders_pending until it is read.
func TestPendingContendersCountInNoAge(t *testing.T) {
	l := mutex("/locks/orders", 0, 1, 2)
	l.ReadAt = t0
	for i := range l.Participants {
		p := &l.Participants[i]
		p.Pending, p.Token, p.Age = true, 0, 0
	}
	l.Participants[0].Hold = lockcore.Hold{How: lockcore.HoldPending}
	e, now := feed(t, Options{}, l)
	*now = t0.Add(time.Hour)
	labels := []string{"/locks/orders", "curator-mutex"}
	for _, name := range []string{"zklocks_lock_oldest_hold_seconds", "zklocks_lock_oldest_hold_at_most_seconds", "zklocks_lock_oldest_wait_seconds"} {
		if got := value(t, e, name, labels); got != 0 {
			t.Errorf("%s = %v, want 0: nothing is known of the pending contenders' times", name, got)
		}
	}
	if got := value(t, e, "zklocks_contenders_pending", nil); got != 2 {
		t.Errorf("zklocks_contenders_pending = %v, want 2", got)
	}
	e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: *now, Path: l.Path, Lock: mutex("/locks/orders", time.Second, 1, 2)})
	if got := value(t, e, "zklocks_contenders_pending", nil); got != 0 {
		t.Errorf("zklocks_contenders_pending once read = %v, want 0", got)
	}
}

// A lock read by assumption says so, so that alerts can leave it out; a
// known lock has no such series.
func TestAssumedLockMetric(t *testing.T) {
	guessed := mutex("/jobs/nightly", 0, 1, 2)
	guessed.Recipe, guessed.Assumed = lockcore.RecipeSequential, []string{"no rule book entry describes 2 contenders"}
	e, _ := feed(t, Options{}, mutex("/locks/billing", time.Second, 4, 5), guessed)
	want := `
# HELP zklocks_lock_assumed 1 for a lock no rule book entry describes, read by the fallback rule: its roles, modes and watches, and so its anomalies, rest on an assumption (zklocks explain PATH says which). Absent for every other lock.
# TYPE zklocks_lock_assumed gauge
zklocks_lock_assumed{path="/jobs/nightly",recipe="sequential"} 1
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(want), "zklocks_lock_assumed"); err != nil {
		t.Fatal(err)
	}
}
