package lockbench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestParseMntr(t *testing.T) {
	reply := strings.Join([]string{
		"zk_version\t3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on 2022-02-25 08:49 UTC",
		"zk_packets_received\t1234",
		"zk_avg_node_deleted_watch_count\t1.0",
		"zk_sum_node_created_watch_count\t1",
		"zk_sum_node_deleted_watch_count\t20",
		"zk_sum_node_changed_watch_count\t300",
		"zk_sum_node_children_watch_count\t4000",
		"",
	}, "\n")
	c, err := parseMntr(reply)
	if err != nil {
		t.Fatal(err)
	}
	if c.packetsReceived != 1234 || c.notifications() != 4321 {
		t.Errorf("got %+v, want 1234 packets and 4321 notifications", c)
	}
}

func TestParseMntrMissingCounters(t *testing.T) {
	// ZooKeeper 3.5 has no watch-count summaries.
	if _, err := parseMntr("zk_version\t3.5.9\nzk_packets_received\t12\n"); err == nil {
		t.Error("want an error for a server without the watch counters")
	}
}

func TestParseHold(t *testing.T) {
	tests := []struct {
		name, line string
		want       Hold
		bad        bool
	}{
		{name: "ok", line: "hold 7 1700000000000001 1700000000000009", want: Hold{Contender: 7, Acquired: 1700000000000001, Released: 1700000000000009}},
		{name: "short", line: "hold 7 1", bad: true},
		{name: "not a number", line: "hold 7 x 2", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseHold(tt.line)
			if (err != nil) != tt.bad || got != tt.want {
				t.Errorf("parseHold(%q) = %+v, %v", tt.line, got, err)
			}
		})
	}
}

// edge is a window edge at µs with the given counters.
func edge(at, packets, deleted int64) snapshot {
	return snapshot{at: at, counters: counters{packetsReceived: packets, deleted: deleted}}
}

func TestAnalyzeWindow(t *testing.T) {
	holds := []Hold{ // out of order, as contenders report them
		{Contender: 1, Acquired: 1_100, Released: 1_110},
		{Contender: 0, Acquired: 900, Released: 1_010},   // acquired before the window opens, released inside; handoff 90µs
		{Contender: 0, Acquired: 1_300, Released: 1_310}, // handoff 190µs
		{Contender: 2, Acquired: 1_400, Released: 2_100}, // handoff 90µs; released after the window
		{Contender: 1, Acquired: 2_200, Released: 2_210}, // after the window
	}
	r := analyze(Config{Client: Ours}, holds, edge(1_000, 100, 10), edge(2_000, 160, 13))
	if r.Elapsed != time.Millisecond || r.Acquisitions != 3 || r.Releases != 3 {
		t.Errorf("elapsed %v, %d acquisitions, %d releases; want 1ms, 3, 3", r.Elapsed, r.Acquisitions, r.Releases)
	}
	want := []time.Duration{90 * time.Microsecond, 90 * time.Microsecond, 190 * time.Microsecond}
	if len(r.Handoffs) != len(want) {
		t.Fatalf("handoffs %v, want %v", r.Handoffs, want)
	}
	for i := range want {
		if r.Handoffs[i] != want[i] {
			t.Errorf("handoffs %v, want %v", r.Handoffs, want)
		}
	}
	if r.Rate() != 3000 || r.RequestsPerAcquisition() != 59.0/3 || r.NotificationsPerRelease() != 1 {
		t.Errorf("rate %v, req/acq %v, notif/rel %v; want 3000, 59/3 (less the closing mntr), 1", r.Rate(), r.RequestsPerAcquisition(), r.NotificationsPerRelease())
	}
	if r.Handoff(0.5) != 90*time.Microsecond || r.Handoff(0.99) != 190*time.Microsecond {
		t.Errorf("p50 %v, p99 %v", r.Handoff(0.5), r.Handoff(0.99))
	}
}

func TestAnalyzeOverlap(t *testing.T) {
	holds := []Hold{
		{Contender: 0, Acquired: 1_100, Released: 1_500},
		{Contender: 1, Acquired: 1_200, Released: 1_210}, // inside 0's hold
		{Contender: 2, Acquired: 1_300, Released: 1_310}, // still inside 0's hold
		{Contender: 3, Acquired: 1_600, Released: 1_610},
	}
	r := analyze(Config{}, holds, edge(1_000, 0, 0), edge(2_000, 0, 0))
	if r.Overlaps != 2 {
		t.Errorf("overlaps %d, want 2", r.Overlaps)
	}
	if len(r.Handoffs) != 1 || r.Handoffs[0] != 100*time.Microsecond {
		t.Errorf("handoffs %v, want [100µs] (from the latest release before)", r.Handoffs)
	}
}

func TestReportVerdicts(t *testing.T) {
	var rep Report
	ops := []OpStat{{Name: "Create", Calls: 30, Failed: 20, Time: 30 * time.Millisecond}}
	rep.Add(Result{Config: Config{Client: Ours, Contenders: 8}, Elapsed: time.Second, Acquisitions: 10, Releases: 10, Notifications: 20, Requests: 60, Ops: ops})
	rep.Add(Result{Config: Config{Client: GoZk, Contenders: 8}, Elapsed: time.Second, Acquisitions: 9, Releases: 9, Notifications: 9, Requests: 45})
	rep.Add(Result{Config: Config{Client: Curator, Contenders: 8}, Elapsed: time.Second, Acquisitions: 20, Releases: 20, Notifications: 20})
	rep.Add(Result{Config: Config{Client: Kazoo, Contenders: 8}, Elapsed: time.Second, Acquisitions: 5, Releases: 5, Notifications: 5})
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{
		"zklocks 10 acq/s vs curator 20 acq/s = 0.50× (target ≥ 1.00×): MISSED",
		"zklocks notifications per release 2.00 (target exactly 1): MISSED",
		"zklocks requests per acquisition 6.00 (target ≤ 5): MISSED",
		"zklocks 10 acq/s vs go-zk 9 acq/s = 1.11× (target ≥ 1.10×): met",
		"Create 3.00 (2.00 failed) 1.0ms",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestReportPrintsBothRatios: with go-zookeeper the fastest, the report
// still gives our rate against Curator's beside go-zookeeper's.
func TestReportPrintsBothRatios(t *testing.T) {
	var rep Report
	rep.Add(Result{Config: Config{Client: Ours, Contenders: 32}, Elapsed: time.Second, Acquisitions: 12, Releases: 12, Notifications: 24, Requests: 72})
	rep.Add(Result{Config: Config{Client: GoZk, Contenders: 32}, Elapsed: time.Second, Acquisitions: 15, Releases: 15, Notifications: 15, Requests: 75})
	rep.Add(Result{Config: Config{Client: Curator, Contenders: 32}, Elapsed: time.Second, Acquisitions: 10, Releases: 10, Notifications: 10})
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{
		"zklocks 12 acq/s vs go-zk 15 acq/s = 0.80× (target ≥ 1.10×): MISSED",
		"zklocks 12 acq/s vs curator 10 acq/s = 1.20× (target ≥ 1.00×): met",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "best other") {
		t.Errorf("report names a best other beside go-zk and curator:\n%s", out.String())
	}
}

func TestMerge(t *testing.T) {
	a := Result{Config: Config{Client: Ours, Contenders: 8}, Elapsed: time.Second, Acquisitions: 100, Releases: 100,
		Requests: 1000, Notifications: 200, Handoffs: []time.Duration{3, 5}, Rates: []float64{100},
		Received: Received{InProcess: true, Own: 100, Wakes: 100}, Ops: []OpStat{{Name: "Get", Calls: 200}}}
	b := Result{Config: a.Config, Elapsed: time.Second, Acquisitions: 300, Releases: 300,
		Requests: 3000, Notifications: 600, Handoffs: []time.Duration{4}, Rates: []float64{300},
		Received: Received{InProcess: true, Own: 300, Wakes: 300}, Ops: []OpStat{{Name: "Get", Calls: 600}, {Name: "Delete", Calls: 300}}}
	m := Merge(a, b)
	if m.Rate() != 200 || m.RequestsPerAcquisition() != 10 || m.NotificationsPerRelease() != 2 {
		t.Errorf("rate %v, req/acq %v, notif/rel %v; want 200, 10, 2", m.Rate(), m.RequestsPerAcquisition(), m.NotificationsPerRelease())
	}
	if len(m.Handoffs) != 3 || m.Handoffs[1] != 4 || len(m.Rates) != 2 || m.Received.Own != 400 {
		t.Errorf("merged %+v", m)
	}
	if len(m.Ops) != 2 || m.Ops[0] != (OpStat{Name: "Get", Calls: 800}) || m.Ops[1].Calls != 300 {
		t.Errorf("ops %+v", m.Ops)
	}
	if got := fmtRange(m.Rates); got != "100–300" {
		t.Errorf("range %q", got)
	}
}
