package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

var readAt = time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)

// queued is the 3 a.m. queue: a holder that got the lock when its
// predecessor left (its grant cannot be dated: held between 0 and its
// node's age) and waiters queued for wait, the oldest first.
func queued(path string, recipe lockcore.Recipe, age, wait time.Duration, waiters int) *lockcore.Lock {
	l := &lockcore.Lock{Path: path, Recipe: recipe, ReadAt: readAt}
	l.Participants = append(l.Participants, lockcore.Participant{Node: "_c_a-lock-0000000007", Role: lockcore.RoleHolder, Session: 0x300,
		Age: age, Ctime: readAt.Add(-age), Hold: lockcore.Hold{How: lockcore.HoldBounded, After: readAt.Add(-age), By: readAt, Min: 0, Max: age}})
	for i := range waiters {
		w := wait - time.Duration(i)*time.Second
		l.Participants = append(l.Participants, lockcore.Participant{Node: "_c_b-lock-000000000" + string(rune('8'+i)), Role: lockcore.RoleWaiter,
			Session: int64(0x301 + i), Age: w, Ctime: readAt.Add(-w)})
	}
	return l
}

func TestWaitThresholds(t *testing.T) {
	base := DefaultThresholds()
	warn := base
	warn.WarnWait = 5 * time.Minute
	both := warn
	both.CritWait = 10 * time.Minute
	for _, tc := range []struct {
		name     string
		lock     *lockcore.Lock
		t        Thresholds
		want     Status
		wantNode string
	}{
		{"under the default", queued("/q", lockcore.RecipeCuratorMutex, 7*time.Minute, 6*time.Minute, 2), base, OK, ""},
		{"past the default", queued("/q", lockcore.RecipeCuratorMutex, 14*time.Minute, DefaultWarnWait+time.Minute, 2), base, Warning, "_c_b-lock-0000000008"},
		{"under warn", queued("/q", lockcore.RecipeCuratorMutex, 7*time.Minute, 4*time.Minute, 2), warn, OK, ""},
		{"past warn", queued("/q", lockcore.RecipeCuratorMutex, 7*time.Minute, 6*time.Minute, 2), warn, Warning, "_c_b-lock-0000000008"},
		{"past crit", queued("/q", lockcore.RecipeKazooLock, 20*time.Minute, 12*time.Minute, 1), both, Critical, "_c_b-lock-0000000008"},
		{"crit alone", queued("/q", lockcore.RecipeCuratorMutex, 20*time.Minute, 12*time.Minute, 1), Thresholds{CritWait: 10 * time.Minute}, Critical, "_c_b-lock-0000000008"},
		{"no waiter", queued("/q", lockcore.RecipeCuratorMutex, 20*time.Minute, 0, 0), both, OK, ""},
		{"elections wait by design", queued("/q", lockcore.RecipeCuratorLeaderLatch, 20*time.Minute, 12*time.Minute, 2), both, OK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Evaluate([]*lockcore.Lock{tc.lock}, tc.t)
			if r.Status() != tc.want {
				t.Fatalf("status %s, want %s: %+v", r.Status(), tc.want, r.Findings)
			}
			var wait *Finding
			for i := range r.Findings {
				if r.Findings[i].Kind == KindWait {
					wait = &r.Findings[i]
				}
			}
			switch {
			case tc.wantNode == "" && wait != nil:
				t.Errorf("unexpected wait finding %+v", *wait)
			case tc.wantNode != "" && (wait == nil || wait.Nodes[0] != tc.wantNode || wait.OldestWait != tc.lock.Participants[1].Age ||
				!strings.Contains(wait.Line(), " wait nodes="+tc.wantNode) || !strings.Contains(wait.Line(), "oldest_wait=")):
				t.Errorf("wait finding %+v", wait)
			}
		})
	}
}

// The 3 a.m. case: warn-held 1m and crit-held 2m say nothing provable of
// an undatable holder, but say it cannot be dated; the waiters' wait is
// exact, and --warn-wait catches the stuck queue.
func TestUndatedHoldIsSaidAndWaitCatchesTheQueue(t *testing.T) {
	th := DefaultThresholds()
	th.WarnHeld, th.CritHeld = time.Minute, 2*time.Minute
	l := queued("/locks/orders", lockcore.RecipeCuratorMutex, 11*time.Minute, 6*time.Minute, 2)
	l.MaybeLongHeld = []lockcore.Anomaly{{Kind: lockcore.AnomalyLongHeld, Node: l.Participants[0].Node, Session: 0x300,
		Detail: "may have held longer than 1m0s: queued from 02:49:00 and got the lock by 03:00:00, when is not known"}}
	r := Evaluate([]*lockcore.Lock{l}, th)
	if r.Status() != OK || len(r.Undated) != 1 || r.Undated[0].AtMost != 11*time.Minute {
		t.Fatalf("status %s, undated %+v", r.Status(), r.Undated)
	}
	if s := r.Summary(); !strings.Contains(s, "1 hold may be past the hold threshold but cannot be dated") {
		t.Errorf("summary does not say the hold is undatable: %s", s)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "NOTE /locks/orders undated-hold nodes=_c_a-lock-0000000007 session=0x300 held_at_most=11m00s: may have held") {
		t.Errorf("text:\n%s", b.String())
	}
	th.WarnWait = 5 * time.Minute
	r = Evaluate([]*lockcore.Lock{l}, th)
	r.SetClients(func(s int64) model.Client {
		if s == 0x300 {
			return model.Client{Session: s, Addr: "10.0.0.9:40000"}
		}
		return model.Client{Session: s}
	})
	if f := r.Findings[0]; f.HolderSession != 0x300 || f.HolderClient.Addr != "10.0.0.9:40000" ||
		!strings.Contains(f.Line(), " session=0x301 ") || !strings.Contains(f.Line(), " holder_session=0x300 holder_client=10.0.0.9:40000 ") {
		t.Errorf("the wait finding does not name the holder: %s", f.Line())
	}
	if r.Status() != Warning || !strings.Contains(r.Summary(), "/locks/orders wait") {
		t.Errorf("with --warn-wait 5m: %s", r.Summary())
	}
	if d := r.Findings[0].Detail; !strings.Contains(d, "waited 6m00s") ||
		!strings.Contains(d, "held by _c_a-lock-0000000007 (session 0x300) for between 0ms and 11m00s, as its grant cannot be dated") {
		t.Errorf("wait detail: %s", d)
	}
	b.Reset()
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		OldestWaitMs int64 `json:"oldest_wait_ms"`
		Findings     []struct {
			Kind               string
			HolderSession      string `json:"holder_session"`
			HolderClient       string `json:"holder_client"`
			OldestWaitMs       *int64 `json:"oldest_wait_ms"`
			OldestHoldAtMostMs int64  `json:"oldest_hold_at_most_ms"`
		}
		Undated []struct {
			Node         string
			HeldAtMostMs int64 `json:"held_at_most_ms"`
		} `json:"undated_holds"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	six := (6 * time.Minute).Milliseconds()
	if got.OldestWaitMs != six || len(got.Findings) != 1 || got.Findings[0].Kind != "wait" || *got.Findings[0].OldestWaitMs != six ||
		got.Findings[0].OldestHoldAtMostMs != (11*time.Minute).Milliseconds() || len(got.Undated) != 1 ||
		got.Findings[0].HolderSession != "0x300" || got.Findings[0].HolderClient != "10.0.0.9:40000" {
		t.Errorf("json:\n%s", b.String())
	}
}

// Where cons is refused, disconnected-holder and silent-holder (critical
// by default) cannot be judged: the result says so and is not complete.
func TestDisconnectedHolderNotJudged(t *testing.T) {
	l := queued("/locks/orders", lockcore.RecipeCuratorMutex, time.Minute, 30*time.Second, 1)
	locks := []*lockcore.Lock{l}
	unknown := lockcore.SessionLinks{}
	r := Evaluate(locks, DefaultThresholds())
	r.CountUnknownLinks(locks, unknown)
	r.LinksNote = "cons refused by 127.0.0.1:2181"
	if r.Complete() || len(r.Unjudged()) != 2 || r.Status() != OK {
		t.Fatalf("complete %v, unjudged %v, status %s", r.Complete(), r.Unjudged(), r.Status())
	}
	want := "disconnected-holder not judged for 1 holder (cons refused by 127.0.0.1:2181)"
	for _, w := range []string{want, "silent-holder not judged for 1 holder"} {
		if !strings.Contains(r.Summary(), w) {
			t.Errorf("summary %q, want it to contain %q", r.Summary(), w)
		}
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"complete": false`) || !strings.Contains(b.String(), want) {
		t.Errorf("json:\n%s", b.String())
	}
	r.RequireComplete = true
	if r.Status() != Unknown {
		t.Errorf("--require-complete: %s, want UNKNOWN", r.Status())
	}
	// Not listed: nothing to judge.
	th := DefaultThresholds()
	th.Critical = nil
	r = Evaluate(locks, th)
	if r.CountUnknownLinks(locks, unknown); !r.Complete() {
		t.Errorf("disconnected-holder unlisted, yet not complete: %v", r.Unjudged())
	}
	// Every member answered: judged.
	connected := lockcore.SessionLinks{}
	for _, p := range l.Participants {
		connected[p.Session] = lockcore.Link{State: lockcore.LinkConnected}
	}
	r = Evaluate(locks, DefaultThresholds())
	if r.CountUnknownLinks(locks, connected); !r.Complete() {
		t.Errorf("links known, yet not complete: %v", r.Unjudged())
	}
}
