package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/check"
)

// queue is a Curator mutex with a holder and a waiter that has waited wait.
func queue(path string, wait time.Duration) *lockcore.Lock {
	return &lockcore.Lock{Path: path, Recipe: lockcore.RecipeCuratorMutex, Participants: []lockcore.Participant{
		{Node: "_c_a-lock-0000000001", Role: lockcore.RoleHolder, Session: 0x1, Ephemeral: true},
		{Node: "_c_b-lock-0000000002", Role: lockcore.RoleWaiter, Session: 0x2, Ephemeral: true, Age: wait},
	}}
}

// herd is a lock whose only anomaly is a herd, which no threshold lists
// when th.Warning is empty.
func herd(path string) *lockcore.Lock {
	l := queue(path, 0)
	l.Anomalies = []lockcore.Anomaly{{Kind: lockcore.AnomalyHerd, Node: "_c_b-lock-0000000002", Detail: "herd"}}
	return l
}

func reached(name string, th check.Thresholds, locks ...*lockcore.Lock) Cluster {
	return Summarize(name, name+":2181", locks, check.Evaluate(locks, th))
}

func TestSummarizeWorst(t *testing.T) {
	th := check.DefaultThresholds()
	th.WarnWait, th.CritWait = time.Minute, time.Hour
	quiet := th
	quiet.Warning = nil
	for _, tc := range []struct {
		name   string
		c      Cluster
		want   Worst
		status check.Status
	}{
		{"nothing", reached("a", th), Worst{}, check.OK},
		{"a wait past the warning", reached("a", th, queue("/q", 2*time.Minute)), Worst{Kind: "wait", Lock: "/q", Status: check.Warning}, check.Warning},
		{"a critical wait first", reached("a", th, queue("/a", 2*time.Minute), queue("/b", 2*time.Hour)),
			Worst{Kind: "wait", Lock: "/b", Status: check.Critical}, check.Critical},
		{"an anomaly no threshold lists", reached("a", quiet, herd("/h")), Worst{Kind: "herd", Lock: "/h", Status: check.OK}, check.OK},
		{"not reached", Cluster{Name: "a", Reach: Unreachable, Err: "no"}, Worst{}, check.Unknown},
		{"not polled", Cluster{Name: "a"}, Worst{}, check.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.c.Worst != tc.want || tc.c.Status() != tc.status {
				t.Errorf("worst %+v, status %s; want %+v, %s", tc.c.Worst, tc.c.Status(), tc.want, tc.status)
			}
		})
	}
}

func TestSortWorstFirst(t *testing.T) {
	th := check.DefaultThresholds()
	th.WarnWait, th.CritWait = time.Minute, time.Hour
	rows := []Cluster{
		{Name: "pending"},
		reached("ok-long", th, queue("/q", 30*time.Second)),
		reached("ok", th),
		reached("warn", th, queue("/q", 2*time.Minute)),
		{Name: "down", Reach: Unreachable, Err: "refused"},
		reached("crit", th, queue("/q", 2*time.Hour)),
		reached("ok-a", th),
	}
	Sort(rows)
	var got []string
	for _, c := range rows {
		got = append(got, c.Name)
	}
	if want := "crit down warn ok-long ok ok-a pending"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	for _, tc := range []struct {
		rows []Cluster
		want check.Status
	}{
		{rows, check.Critical},
		{rows[1:], check.Unknown},
		{rows[2:3], check.Warning},
		{rows[3:6], check.OK},
		{rows[3:], check.Unknown},
	} {
		if got := Overall(tc.rows); got != tc.want {
			t.Errorf("Overall of %d rows from %s = %s, want %s", len(tc.rows), tc.rows[0].Name, got, tc.want)
		}
	}
	if s := Summary(rows); s != "CRITICAL: 7 clusters; 1 critical: crit; 2 unknown: down, pending; 1 warning: warn" {
		t.Errorf("summary %q", s)
	}
	failed := reached("failed", th)
	failed.Result.Errors = []string{"/locks/x: not authenticated"}
	for _, tc := range []struct {
		c    Cluster
		want string
	}{
		{rows[0], "wait /q"},
		{rows[1], "refused"},
		{rows[4], "-"},
		{failed, "0 locks, none stuck or over a threshold; 1 read failed: /locks/x: not authenticated"},
	} {
		if got := tc.c.Why(); got != tc.want {
			t.Errorf("%s: Why %q, want %q", tc.c.Name, got, tc.want)
		}
	}
}

// What a context's name, its server's error or a lock's path holds
// reaches the terminal escaped, in the table and in the check lines.
func TestOutputEscapes(t *testing.T) {
	rows := []Cluster{
		{Name: "evil\x1b[2J", Reach: Failed, Err: "bad \x1b]52;c;x\x07"},
		reached("fine", check.DefaultThresholds(), herd("/h\x1b[31m")),
	}
	var text, lines, js bytes.Buffer
	if err := WriteListText(&text, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteCheckText(&lines, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, rows, true); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"ls": text.String(), "check": lines.String()} {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s writes raw escapes:\n%q", name, out)
		}
	}
	var got struct {
		Status   string
		Clusters []struct {
			Context string
			Error   *string
			Check   *struct{ Status string }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "UNKNOWN" || len(got.Clusters) != 2 || got.Clusters[0].Error == nil || got.Clusters[0].Check != nil ||
		got.Clusters[1].Check == nil || got.Clusters[1].Check.Status != "WARNING" {
		t.Errorf("JSON %+v\n%s", got, js.String())
	}
}

// The Poller polls nothing before Start, each cluster at once after it,
// again on PollNow, and keeps when a cluster's polls started failing.
func TestPoller(t *testing.T) {
	var polls atomic.Int32
	down := atomic.Bool{}
	probe := func(ctx context.Context, name string) Cluster {
		polls.Add(1)
		if name == "b" && down.Load() {
			return Cluster{Name: name, Reach: Unreachable, Err: "refused"}
		}
		return Summarize(name, "", nil, check.Result{})
	}
	p := NewPoller([]string{"a", "b"}, probe, time.Hour)
	rows, changed := p.Snapshot()
	if len(rows) != 2 || rows[0].Reach != Pending || p.Started() || polls.Load() != 0 {
		t.Fatalf("before Start: %+v, %d polls", rows, polls.Load())
	}
	p.Start(t.Context())
	p.Start(t.Context())
	wait := func(done func([]Cluster) bool) []Cluster {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			rows, ch := p.Snapshot()
			if done(rows) {
				return rows
			}
			select {
			case <-ch:
			case <-deadline:
				t.Fatalf("rows %+v", rows)
			}
		}
	}
	<-changed
	wait(func(rows []Cluster) bool { return rows[0].Reach == Reached && rows[1].Reach == Reached })
	if n := polls.Load(); n != 2 {
		t.Errorf("%d polls after Start, want 2 (one each)", n)
	}
	down.Store(true)
	p.PollNow()
	first := wait(func(rows []Cluster) bool { return rows[0].Name == "b" && rows[0].Reach == Unreachable })[0]
	p.PollNow()
	again := wait(func(rows []Cluster) bool { return rows[0].At.After(first.At) })[0]
	if first.Down.IsZero() || !again.Down.Equal(first.Down) {
		t.Errorf("down since %v, then %v: want the first failed poll's time kept", first.Down, again.Down)
	}
}

// check --all-contexts' performance data gives a wait to the millisecond,
// as check does, never a float64's stray digits.
func TestCheckTextPerfSeconds(t *testing.T) {
	c := reached("prod", check.DefaultThresholds())
	c.Result.OldestWait = 3663 * time.Millisecond
	var out bytes.Buffer
	if err := WriteCheckText(&out, []Cluster{c}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "'prod:oldest_wait'=3.663s;;;0") {
		t.Errorf("performance data:\n%s", out.String())
	}
}
