package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/model/fleet"
)

// fakeFleet is a fixed fleet: what a Poller would hold after its polls.
type fakeFleet struct {
	rows    []fleet.Cluster
	started bool
	polls   int
}

func (f *fakeFleet) Start()        { f.started = true }
func (f *fakeFleet) Started() bool { return f.started }
func (f *fakeFleet) Snapshot() ([]fleet.Cluster, <-chan struct{}) {
	rows := append([]fleet.Cluster(nil), f.rows...)
	fleet.Sort(rows)
	// Closed: the test App's commands must not block (a change is then
	// taken again, up to the depth runCmd allows).
	changed := make(chan struct{})
	close(changed)
	return rows, changed
}
func (f *fakeFleet) PollNow()                { f.polls++ }
func (f *fakeFleet) Interval() time.Duration { return 30 * time.Second }

// fleetRows are four contexts: east with a queue stuck past its critical
// wait, north unreachable for two minutes, west (the UI's) calm, south
// warned of a herd, and lab not polled yet.
func fleetRows() []fleet.Cluster {
	stuck := check.Result{Locks: 12, Holders: 3, Waiters: 4, OldestWait: 4*time.Minute + 12*time.Second,
		Findings: []check.Finding{{Status: check.Critical, Lock: "/locks/orders", Kind: check.KindWait}}}
	herd := check.Result{Locks: 40, Holders: 2, Waiters: 9, OldestWait: 3 * time.Second,
		Findings: []check.Finding{{Status: check.Warning, Lock: "/jobs/nightly/lock", Kind: "herd"}}}
	return []fleet.Cluster{
		{Name: "west", Server: "w1:2181", Reach: fleet.Reached, Result: check.Result{Locks: 7, Holders: 2}, At: t0.Add(-5 * time.Second)},
		{Name: "north", Server: "n1:2181", Reach: fleet.Unreachable, At: t0.Add(-10 * time.Second), Down: t0.Add(-2 * time.Minute),
			Err: "zookeeper unreachable: connection refused by n1:2181 at every attempt"},
		{Name: "east", Server: "e1:2181", Reach: fleet.Reached, Result: stuck, At: t0.Add(-12 * time.Second),
			Worst: fleet.Worst{Kind: check.KindWait, Lock: "/locks/orders", Status: check.Critical}},
		{Name: "south", Server: "s1:2181", Reach: fleet.Reached, Result: herd, At: t0.Add(-20 * time.Second),
			Worst: fleet.Worst{Kind: "herd", Lock: "/jobs/nightly/lock", Status: check.Warning}},
		{Name: "lab"},
	}
}

// newFleetApp is the test App on context west, with the fleet above; to
// records the context switched to.
func newFleetApp(t *testing.T, w, h int, src *fakeFleet, to *string, change ...func(*Options)) *App {
	return newTestApp(t, w, h, append([]func(*Options){func(o *Options) {
		o.Context, o.Contexts, o.Fleet = "west", []string{"east", "lab", "north", "south", "west"}, src
		o.SwitchContext = func(name string) { *to = name }
	}}, change...)...)
}

func TestGoldenFleet(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			var to string
			src := &fakeFleet{rows: fleetRows()}
			a := newFleetApp(t, sz.w, sz.h, src, &to)
			press(a, ":", "f", "l", "enter")
			golden(t, "fleet_"+sz.name, a)
			only := newFleetApp(t, sz.w, sz.h, src, &to, func(o *Options) {
				o.Context, o.State, o.FleetOnly = "", nil, true
				o.Message = "context north: zookeeper unreachable: connection refused by n1:2181 at every attempt"
			})
			golden(t, "fleet_only_"+sz.name, only)
		})
	}
}

// The fleet screen lists the worst first; enter on another cluster
// switches to it as :ctx does, on the UI's own goes to its locks; esc
// comes back from the locks to the fleet, and from the fleet to where
// the operator was.
func TestFleetScreen(t *testing.T) {
	var to string
	src := &fakeFleet{rows: fleetRows()}
	a := newFleetApp(t, 120, 40, src, &to)
	if src.started {
		t.Fatal("the fleet is polled before the fleet screen is shown")
	}
	press(a, "esc")
	if a.focused() != focusLocks {
		t.Fatalf("esc on the locks before the fleet was shown went to %d", a.focused())
	}
	press(a, ":", "f", "l", "e", "e", "t", "enter")
	if !src.started || a.focused() != focusFleet {
		t.Fatalf("started %v, focused %d", src.started, a.focused())
	}
	lines := strings.Split(screen(a), "\n")
	var order []string
	for _, l := range lines[2:7] {
		order = append(order, strings.Fields(strings.TrimLeft(l, " >⎈"))[0])
	}
	if got := strings.Join(order, " "); got != "east north south west lab" {
		t.Errorf("rows %q, want worst first:\n%s", got, screen(a))
	}
	if !strings.Contains(lines[0], "5 clusters · 1 critical · 1 unknown · 1 warning") {
		t.Errorf("title %q", lines[0])
	}

	press(a, "G", "k", "enter")
	if to != "" || a.focused() != focusLocks || len(a.drill) != 0 {
		t.Fatalf("enter on the UI's own cluster: switched to %q, focused %d", to, a.focused())
	}
	press(a, "esc")
	if a.focused() != focusFleet {
		t.Fatalf("esc on the locks after the fleet went to %d", a.focused())
	}
	press(a, "esc")
	if a.focused() != focusLocks {
		t.Fatalf("esc on the fleet went to %d", a.focused())
	}
	press(a, "/", "x", "esc")
	if a.focused() != focusLocks {
		t.Fatalf("esc clearing the filter also left the locks for %d", a.focused())
	}
	press(a, "esc", "r")
	if a.focused() != focusFleet || src.polls != 1 || !strings.Contains(screen(a), "polling every cluster again") {
		t.Fatalf("r on the fleet: focused %d, %d polls:\n%s", a.focused(), src.polls, screen(a))
	}
	press(a, "?")
	if sc := screen(a); !strings.Contains(sc, "poll again") || strings.Contains(sc, "cost to servers") {
		t.Errorf("the fleet screen's help:\n%s", sc)
	}
	press(a, "esc", "g")
	if quit := press(a, "enter"); !quit || to != "east" {
		t.Fatalf("enter on east: quit %v, switched to %q", quit, to)
	}
}

// With no cluster open, the fleet screen is all there is: esc says so,
// the screens of a cluster are refused, and enter opens one.
func TestFleetOnly(t *testing.T) {
	var to string
	src := &fakeFleet{rows: fleetRows()}
	a := newFleetApp(t, 80, 24, src, &to, func(o *Options) { o.Context, o.State, o.FleetOnly = "", nil, true })
	if !src.started || a.focused() != focusFleet {
		t.Fatalf("started %v, focused %d", src.started, a.focused())
	}
	press(a, "esc")
	if a.focused() != focusFleet || !strings.Contains(screen(a), "no cluster is open") {
		t.Fatalf("esc:\n%s", screen(a))
	}
	press(a, "1", ":", "l", "o", "c", "k", "s", "enter")
	if a.focused() != focusFleet || !strings.Contains(screen(a), "no cluster is open: enter opens") {
		t.Fatalf("1 and :locks with no cluster:\n%s", screen(a))
	}
	press(a, "j")
	if quit := press(a, "enter"); !quit || to != "north" {
		t.Fatalf("enter on north: quit %v, switched to %q", quit, to)
	}
}

// What a context's name, a server's error or a lock's path holds reaches
// the screen escaped.
func TestFleetEscapes(t *testing.T) {
	var to string
	src := &fakeFleet{rows: []fleet.Cluster{
		{Name: "evil\x1b[2J", Reach: fleet.Failed, Err: "bad \x1b]52;c;eA==\x07", Down: t0},
		{Name: "fine", Reach: fleet.Reached, Result: check.Result{Locks: 1},
			Worst: fleet.Worst{Kind: "herd", Lock: "/locks/\u202eevil", Status: check.OK}},
	}}
	a := newFleetApp(t, 120, 40, src, &to)
	press(a, ":", "f", "l", "enter")
	v := a.View()
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b]52") || strings.Contains(v, "\u202e") {
		t.Fatalf("raw escapes reach the terminal:\n%q", v)
	}
	if sc := screen(a); !strings.Contains(sc, `evil\x1b[2J`) || !strings.Contains(sc, `/locks/\u202eevil`) {
		t.Errorf("escaped names not shown:\n%s", sc)
	}
}

// Without a fleet, :fleet says why.
func TestNoFleet(t *testing.T) {
	a := newTestApp(t, 80, 24, func(o *Options) { o.NoFleet = "--server is given, and wins over every context" })
	press(a, ":", "f", "l", "enter")
	if a.focused() == focusFleet || !strings.Contains(screen(a), "no fleet screen: --server is given") {
		t.Fatalf(":fleet without a fleet:\n%s", screen(a))
	}
}
