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

const (
	w4 = "_c_ebead31a-5d7e-4b43-9c7e-7d2a6a7a0c11-__WRIT__0000000004"
	w5 = "_c_4e74228d-1b6a-4d7e-8b8c-2a8d0b1e5f22-__WRIT__0000000005"
	r3 = "_c_7595c1ba-0c2f-49d1-a2a4-9f0e6f9b3a33-__READ__0000000003"
)

// stuck is a kazoo-like wait-cycle with no holder.
func stuck() *lockcore.Lock {
	return &lockcore.Lock{Path: "/locks/orders", Recipe: lockcore.RecipeCuratorRWLock,
		Participants: []lockcore.Participant{
			{Node: r3, Role: lockcore.RoleWaiter, Session: 0x103, Ephemeral: true},
			{Node: w4, Role: lockcore.RoleWaiter, Session: 0x104, Ephemeral: true},
			{Node: w5, Role: lockcore.RoleWaiter, Session: 0x105, Ephemeral: true},
		},
		Anomalies: []lockcore.Anomaly{{Kind: lockcore.AnomalyWaitCycle, Node: r3, Nodes: []string{r3, w4, w5}, Session: 0x103,
			Detail: "waits in a loop"}},
	}
}

// held is an exclusive lock held for age with n waiters; the long-held
// anomaly is there when the analysis (LongHeld) would have found it.
func held(path string, age time.Duration, waiters int, longHeld time.Duration) *lockcore.Lock {
	l := &lockcore.Lock{Path: path, Recipe: lockcore.RecipeCuratorMutex}
	l.Participants = append(l.Participants, lockcore.Participant{Node: "_c_a-lock-0000000000", Role: lockcore.RoleHolder, Session: 0x200, Age: age, Ephemeral: true,
		Hold: lockcore.Hold{How: lockcore.HoldCreated, Min: age, Max: age}})
	for i := range waiters {
		l.Participants = append(l.Participants, lockcore.Participant{Node: "_c_b-lock-000000000" + string(rune('1'+i)), Role: lockcore.RoleWaiter, Session: int64(0x201 + i), Ephemeral: true})
	}
	if longHeld > 0 && age > longHeld {
		l.Anomalies = append(l.Anomalies, lockcore.Anomaly{Kind: lockcore.AnomalyLongHeld, Node: "_c_a-lock-0000000000",
			Nodes: []string{"_c_a-lock-0000000000"}, Session: 0x200, Detail: "held for about " + age.String()})
	}
	return l
}

func TestEvaluateStatus(t *testing.T) {
	def := DefaultThresholds()
	withCrit := def
	withCrit.CritHeld = time.Hour
	waiters := def
	waiters.WarnWaiters, waiters.CritWaiters = 3, 5
	noLongHeld := def
	noLongHeld.Warning = []lockcore.AnomalyKind{lockcore.AnomalyHerd}
	critOnly := Thresholds{CritHeld: time.Hour, Critical: def.Critical, Warning: def.Warning}
	for _, tc := range []struct {
		name  string
		locks []*lockcore.Lock
		t     Thresholds
		want  Status
		kinds []string
	}{
		{"nothing", nil, def, OK, nil},
		{"quiet lock", []*lockcore.Lock{held("/a", time.Minute, 2, def.LongHeld())}, def, OK, nil},
		{"wait-cycle is critical", []*lockcore.Lock{stuck()}, def, Critical, []string{"wait-cycle"}},
		{"long-held is a warning", []*lockcore.Lock{held("/a", 10*time.Minute, 0, def.LongHeld())}, def, Warning, []string{"long-held"}},
		{"long-held under crit-held stays a warning", []*lockcore.Lock{held("/a", 10*time.Minute, 0, withCrit.LongHeld())}, withCrit, Warning, []string{"long-held"}},
		{"long-held past crit-held is critical", []*lockcore.Lock{held("/a", 2*time.Hour, 0, withCrit.LongHeld())}, withCrit, Critical, []string{"long-held"}},
		{"crit-held alone", []*lockcore.Lock{held("/a", 2*time.Hour, 0, critOnly.LongHeld()), held("/b", 10*time.Minute, 0, critOnly.LongHeld())}, critOnly, Critical, []string{"long-held"}},
		{"long-held not listed", []*lockcore.Lock{held("/a", 10*time.Minute, 0, noLongHeld.LongHeld())}, noLongHeld, OK, nil},
		{"waiters at warn", []*lockcore.Lock{held("/a", time.Second, 3, 0)}, waiters, Warning, []string{"waiters"}},
		{"waiters at crit", []*lockcore.Lock{held("/a", time.Second, 5, 0)}, waiters, Critical, []string{"waiters"}},
		{"waiters off by default", []*lockcore.Lock{held("/a", time.Second, 8, 0)}, def, OK, nil},
		{"critical first", []*lockcore.Lock{held("/a", 10*time.Minute, 0, def.LongHeld()), stuck()}, def, Critical, []string{"wait-cycle", "long-held"}},
		{"unparsed ignored", []*lockcore.Lock{{Path: "/u", Anomalies: []lockcore.Anomaly{{Kind: lockcore.AnomalyUnparsed}}}}, def, OK, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Evaluate(tc.locks, tc.t)
			if got := r.Status(); got != tc.want {
				t.Errorf("status %s, want %s; findings %+v", got, tc.want, r.Findings)
			}
			var kinds []string
			for _, f := range r.Findings {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, " ") != strings.Join(tc.kinds, " ") {
				t.Errorf("kinds %v, want %v", kinds, tc.kinds)
			}
		})
	}
}

func TestStatusWithGaps(t *testing.T) {
	warn := Evaluate([]*lockcore.Lock{held("/a", 10*time.Minute, 0, 5*time.Minute)}, DefaultThresholds())
	crit := Evaluate([]*lockcore.Lock{stuck()}, DefaultThresholds())
	for _, tc := range []struct {
		name string
		r    Result
		want Status
	}{
		{"failure", Result{Failure: "no server answered"}, Unknown},
		{"read errors hide a warning", with(warn, func(r *Result) { r.Errors = []string{"/x: not authenticated"} }), Unknown},
		{"read errors do not hide a critical", with(crit, func(r *Result) { r.Errors = []string{"/x: not authenticated"} }), Critical},
		{"partial is a note", with(warn, func(r *Result) { r.Partial = []string{"search stopped"} }), Warning},
		{"partial with require-complete", with(warn, func(r *Result) { r.Partial, r.RequireComplete = []string{"search stopped"}, true }), Unknown},
		{"require-complete on a complete search", with(Result{Locks: 3}, func(r *Result) { r.RequireComplete = true }), OK},
	} {
		if got := tc.r.Status(); got != tc.want {
			t.Errorf("%s: status %s, want %s", tc.name, got, tc.want)
		}
	}
}

func with(r Result, f func(*Result)) Result {
	f(&r)
	return r
}

func TestSummary(t *testing.T) {
	th := DefaultThresholds()
	locks := []*lockcore.Lock{stuck(), held("/locks/billing", 10*time.Minute, 0, th.LongHeld())}
	for range 1312 {
		locks = append(locks, held("/locks/quiet", time.Second, 0, th.LongHeld()))
	}
	r := Evaluate(locks, th)
	if got, want := r.Summary(), "CRITICAL: 1 of 1,314 locks stuck: /locks/orders wait-cycle; 1 more needs a look"; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	r = Evaluate(locks[1:], th)
	r.Partial = []string{"locks whose contenders are all persistent nodes may be missing"}
	if got, want := r.Summary(), "WARNING: 1 of 1,313 locks needs a look: /locks/billing long-held; partial: locks whose contenders are all persistent nodes may be missing"; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	if got, want := Evaluate(locks[2:], th).Summary(), "OK: 1,312 locks, none stuck or over a threshold"; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	if got, want := (Result{Failure: "no ZooKeeper server answered\x1b[2J"}).Summary(), `UNKNOWN: no ZooKeeper server answered\x1b[2J`; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	var many []*lockcore.Lock
	for _, p := range []string{"/a", "/b", "/c", "/d", "/e", "/f", "/g"} {
		l := stuck()
		l.Path = p
		many = append(many, l)
	}
	if got, want := Evaluate(many, th).Summary(), "CRITICAL: 7 of 7 locks stuck: /a wait-cycle, /b wait-cycle, /c wait-cycle, /d wait-cycle, /e wait-cycle, and 2 more"; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
}

func TestWriteText(t *testing.T) {
	th := DefaultThresholds()
	th.WarnWaiters = 4
	r := Evaluate([]*lockcore.Lock{stuck(), held("/locks/b'=x", 10*time.Minute, 0, th.LongHeld())}, th)
	r.SetClients(func(s int64) model.Client {
		if s == 0x103 {
			return model.Client{Session: s, Addr: "10.0.0.7:51234", Server: "127.0.0.1:2181"}
		}
		return model.Client{Session: s}
	})
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `CRITICAL: 1 of 2 locks stuck: /locks/orders wait-cycle; 1 more needs a look | locks=2;;;0 stuck=1;;;0 warning=1;;;0 holders=1;;;0 waiters=3;;;0 oldest_wait=0s;600;;0 complete=1;;;0;1
CRITICAL /locks/orders wait-cycle nodes=_c_7595c1ba…-__READ__0000000003,_c_ebead31a…-__WRIT__0000000004,_c_4e74228d…-__WRIT__0000000005 session=0x103 client=10.0.0.7:51234 holders=0 waiters=3 oldest_hold=0ms oldest_wait=0ms: waits in a loop
WARNING /locks/b'=x long-held nodes=_c_a-lock-0000000000 session=0x200 holders=1 waiters=0 oldest_hold=10m00s: held for about 10m0s
| '/locks/orders:holders'=0;;;0 '/locks/orders:waiters'=3;4;;0 '/locks/orders:oldest_hold'=0s;300;;0 '/locks/orders:oldest_wait'=0s;600;;0 '/locks/b''_x:holders'=1;;;0 '/locks/b''_x:waiters'=0;4;;0 '/locks/b''_x:oldest_hold'=600s;300;;0 '/locks/b''_x:oldest_wait'=0s;600;;0
`
	if b.String() != want {
		t.Errorf("text\n got:\n%s\nwant:\n%s", b.String(), want)
	}
	if strings.Count(b.String(), "|") != 2 {
		t.Errorf("plugin output may hold one | in the first line and one in the long text")
	}
}

func TestWriteJSON(t *testing.T) {
	r := Evaluate([]*lockcore.Lock{stuck()}, DefaultThresholds())
	r.SetClients(func(s int64) model.Client { return model.Client{Session: s, Addr: "10.0.0.7:1"} })
	r.Partial = []string{"stopped short"}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Status   string `json:"status"`
		Code     int    `json:"code"`
		Complete bool   `json:"complete"`
		Findings []struct {
			Lock, Kind, Status string
			Nodes              []string
			Session, Client    *string
		} `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if got.Status != "CRITICAL" || got.Code != 2 || got.Complete || len(got.Findings) != 1 {
		t.Fatalf("%+v", got)
	}
	f := got.Findings[0]
	if f.Lock != "/locks/orders" || f.Kind != "wait-cycle" || len(f.Nodes) != 3 || *f.Session != "0x103" || *f.Client != "10.0.0.7:1" {
		t.Errorf("%+v", f)
	}
	b.Reset()
	if err := Evaluate(nil, DefaultThresholds()).WriteJSON(&b); err != nil || !strings.Contains(b.String(), `"findings": []`) {
		t.Errorf("no findings must be an empty array: %v\n%s", err, b.String())
	}
}

func TestThresholdsValidate(t *testing.T) {
	th := DefaultThresholds()
	if err := th.Validate(); err != nil {
		t.Fatal(err)
	}
	th.CritHeld = time.Minute
	if err := th.Validate(); err == nil {
		t.Error("crit-held under warn-held must be refused")
	}
	th = DefaultThresholds()
	th.WarnWaiters, th.CritWaiters = 10, 5
	if err := th.Validate(); err == nil {
		t.Error("crit-waiters under warn-waiters must be refused")
	}
	if got := (Thresholds{CritHeld: time.Hour}).LongHeld(); got != time.Hour {
		t.Errorf("LongHeld with crit-held alone = %s", got)
	}
	if got := DefaultCritical(); len(got) != 7 || got[5] != lockcore.AnomalyDisconnectedHolder || got[6] != lockcore.AnomalySilentHolder {
		t.Errorf("default critical kinds %v: the issue's five, a disconnected holder and a silent one", got)
	}
	for _, k := range []lockcore.AnomalyKind{lockcore.AnomalyUnfenced, lockcore.AnomalyHolderUnregistered,
		lockcore.AnomalyBackupIsActive, lockcore.AnomalyLeaderWithoutCandidate, lockcore.AnomalyDuplicateSeq} {
		th := DefaultThresholds()
		if got := th.severity(&lockcore.Lock{}, lockcore.Anomaly{Kind: k}); got != Warning {
			t.Errorf("the application sign %s by default: %v, want a warning", k, got)
		}
	}
}

// Performance data is in seconds to the millisecond, without a float64's
// stray digits.
func TestPerfSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		3663 * time.Millisecond:                      "3.663",
		3663*time.Millisecond + 999*time.Microsecond: "3.663",
		10 * time.Minute:                             "600",
		500 * time.Millisecond:                       "0.5",
		0:                                            "0",
	} {
		if got := PerfSeconds(d); got != want {
			t.Errorf("PerfSeconds(%s) = %q, want %q", d, got, want)
		}
	}
}
