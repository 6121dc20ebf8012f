package check

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// WriteText writes the result as monitoring plugins print it: the summary
// line with the totals as performance data, one line per finding, then
// the performance data of each lock with a finding after a "|" line, as
// Nagios' multi-line plugin output has it (the long text may hold one "|"
// only: whatever follows it is performance data). Names and details are
// escaped with model.Printable.
//
//	CRITICAL: 1 of 1,314 locks stuck: /locks/orders wait-cycle | locks=1314;;;0 stuck=1;;;0 warning=0;;;0 holders=…
//	CRITICAL /locks/orders wait-cycle nodes=…,… session=0x… client=10.0.0.7:51234 holders=0 waiters=5 oldest_hold=0s: …
//	| '/locks/orders:holders'=0;;;0 '/locks/orders:waiters'=5;;;0 '/locks/orders:oldest_hold'=0s;300;;0
func (r Result) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(r.Summary())
	if r.Failure == "" {
		fmt.Fprintf(&b, " | locks=%d;;;0 stuck=%d;;;0 warning=%d;;;0 holders=%d;;;0 waiters=%d;;;0 oldest_wait=%ss;%s;%s;0 complete=%d;;;0;1",
			r.Locks, len(r.locksAt(Critical)), len(r.locksAt(Warning)), r.Holders, r.Waiters,
			PerfSeconds(r.OldestWait), heldThreshold(r.Thresholds.WarnWait), heldThreshold(r.Thresholds.CritWait),
			boolInt(r.Complete()))
	}
	b.WriteByte('\n')
	for _, f := range r.Findings {
		b.WriteString(f.Line())
		b.WriteByte('\n')
	}
	for _, u := range r.Undated {
		b.WriteString(u.Line())
		b.WriteByte('\n')
	}
	for _, u := range r.Unjudged() {
		fmt.Fprintf(&b, "NOTE %s\n", model.Printable(u))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "UNKNOWN read failed: %s\n", model.Printable(e))
	}
	if perf := r.lockPerf(); perf != "" {
		b.WriteString("| ")
		b.WriteString(perf)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Line is the finding as one line of text: status, lock, kind, nodes,
// session, client when a server named it, the lock's figures, and the
// evidence.
func (f Finding) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", f.Status, model.Printable(f.Lock), f.Kind)
	if len(f.Nodes) > 0 {
		short := make([]string, len(f.Nodes))
		for i, n := range f.Nodes {
			short[i] = model.ShortNode(n)
		}
		fmt.Fprintf(&b, " nodes=%s", strings.Join(short, ","))
	}
	if f.Session != 0 || f.Kind == string(lockcore.AnomalyPersistent) {
		fmt.Fprintf(&b, " session=%s", model.SessionText(f.Session))
	}
	writeClient(&b, "client", f.Client)
	if f.HolderSession != 0 {
		fmt.Fprintf(&b, " holder_session=%s", model.SessionText(f.HolderSession))
		writeClient(&b, "holder_client", f.HolderClient)
	}
	fmt.Fprintf(&b, " holders=%d waiters=%d oldest_hold=%s", f.Holders, f.Waiters, model.Duration(f.OldestHold))
	if f.OldestHoldAtMost > f.OldestHold {
		fmt.Fprintf(&b, " oldest_hold_at_most=%s", model.Duration(f.OldestHoldAtMost))
	}
	if f.HasWaiter {
		fmt.Fprintf(&b, " oldest_wait=%s", model.Duration(f.OldestWait))
	}
	if f.Detail != "" {
		fmt.Fprintf(&b, ": %s", model.Printable(f.Detail))
	}
	return b.String()
}

// writeClient adds " name=address" to b for a client the servers named,
// " name=none" for one connected to no member, and nothing when unknown.
func writeClient(b *strings.Builder, name string, c model.Client) {
	switch {
	case c.Addr != "":
		fmt.Fprintf(b, " %s=%s", name, model.Printable(c.Addr))
	case c.Gone:
		fmt.Fprintf(b, " %s=none", name)
	}
}

// Line is the undated hold as one line of text, after the findings:
// "NOTE /locks/orders undated-hold nodes=… session=… held_at_most=11m: …".
func (u Undated) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "NOTE %s undated-hold nodes=%s", model.Printable(u.Lock), model.ShortNode(u.Node))
	if u.Session != 0 {
		fmt.Fprintf(&b, " session=%s", model.SessionText(u.Session))
	}
	fmt.Fprintf(&b, " held_at_most=%s", model.Duration(u.AtMost))
	if u.Detail != "" {
		fmt.Fprintf(&b, ": %s", model.Printable(u.Detail))
	}
	return b.String()
}

// lockPerf is the performance data of each lock with a finding, in the
// findings' order, with the thresholds that apply.
func (r Result) lockPerf() string {
	seen := map[string]bool{}
	var parts []string
	t := r.Thresholds
	for _, f := range r.Findings {
		if seen[f.Lock] {
			continue
		}
		seen[f.Lock] = true
		parts = append(parts,
			fmt.Sprintf("%s=%d;;;0", PerfLabel(f.Lock, "holders"), f.Holders),
			fmt.Sprintf("%s=%d;%s;%s;0", PerfLabel(f.Lock, "waiters"), f.Waiters, threshold(t.WarnWaiters), threshold(t.CritWaiters)),
			fmt.Sprintf("%s=%ss;%s;%s;0", PerfLabel(f.Lock, "oldest_hold"), PerfSeconds(f.OldestHold),
				heldThreshold(t.WarnHeld), heldThreshold(t.CritHeld)),
			fmt.Sprintf("%s=%ss;%s;%s;0", PerfLabel(f.Lock, "oldest_wait"), PerfSeconds(f.OldestWait),
				heldThreshold(t.WarnWait), heldThreshold(t.CritWait)))
	}
	return strings.Join(parts, " ")
}

// PerfLabel is the performance-data label of figure for name (a lock, a
// cluster), quoted as the plugin guidelines say: in single quotes, a
// quote doubled; "=" cannot appear in one at all.
func PerfLabel(name, figure string) string {
	l := model.Printable(name) + ":" + figure
	l = strings.ReplaceAll(l, "'", "''")
	l = strings.ReplaceAll(l, "=", "_")
	return "'" + l + "'"
}

func threshold(v int) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprint(v)
}

// PerfSeconds is d in seconds, to the millisecond, for performance data:
// "600", "0.5", "3.663". It divides whole milliseconds, since
// d.Seconds() of 3.663s is 3.6630000000000003 in a float64's digits.
func PerfSeconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64)
}

// heldThreshold is a hold threshold in seconds, "" when it is off.
func heldThreshold(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return PerfSeconds(d)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// resultJSON is `zklocks check --json`: a contract with scripts.
type resultJSON struct {
	Status       string        `json:"status"`
	Code         int           `json:"code"`
	Summary      string        `json:"summary"`
	Locks        int           `json:"locks"`
	Complete     bool          `json:"complete"`
	Partial      []string      `json:"partial"`
	NotJudged    []string      `json:"not_judged"`
	Errors       []string      `json:"errors"`
	OldestWaitMs int64         `json:"oldest_wait_ms"`
	Findings     []findingJSON `json:"findings"`
	Undated      []undatedJSON `json:"undated_holds"`
}

type undatedJSON struct {
	Lock          string  `json:"lock"`
	Node          string  `json:"node"`
	Session       *string `json:"session"`
	HeldAtMostMs  int64   `json:"held_at_most_ms"`
	HeldAtLeastMs int64   `json:"held_at_least_ms"`
	Detail        string  `json:"detail"`
}

type findingJSON struct {
	Status  string   `json:"status"`
	Lock    string   `json:"lock"`
	Recipe  string   `json:"recipe"`
	Kind    string   `json:"kind"`
	Nodes   []string `json:"nodes"`
	Session *string  `json:"session"`
	Client  *string  `json:"client"`
	// HolderSession and HolderClient, on a wait finding, name the holder
	// the queue waits behind.
	HolderSession *string `json:"holder_session,omitempty"`
	HolderClient  *string `json:"holder_client,omitempty"`
	Detail        string  `json:"detail"`
	Holders       int     `json:"holders"`
	Waiters       int     `json:"waiters"`
	OldestHoldMs  int64   `json:"oldest_hold_ms"`
	// OldestHoldAtMostMs is the hold's upper bound; OldestWaitMs is null
	// when no node waits.
	OldestHoldAtMostMs int64  `json:"oldest_hold_at_most_ms"`
	OldestWaitMs       *int64 `json:"oldest_wait_ms"`
	// Assumed: the finding rests on an assumption (capped at warning).
	Assumed bool `json:"assumed,omitempty"`
}

// WriteJSON writes the result for scripts: the status, the summary line,
// whether the search was complete, and the findings as an array (empty,
// never null, when there are none).
func (r Result) WriteJSON(w io.Writer) error {
	st := r.Status()
	out := resultJSON{Status: st.String(), Code: int(st), Summary: r.Summary(), Locks: r.Locks, Complete: r.Complete(),
		Partial: nonNil(r.Partial), NotJudged: nonNil(r.Unjudged()), Errors: nonNil(r.Errors), OldestWaitMs: r.OldestWait.Milliseconds(),
		Findings: []findingJSON{}, Undated: []undatedJSON{}}
	for _, u := range r.Undated {
		uj := undatedJSON{Lock: u.Lock, Node: u.Node, HeldAtMostMs: u.AtMost.Milliseconds(), HeldAtLeastMs: u.AtLeast.Milliseconds(), Detail: u.Detail}
		if u.Session != 0 {
			s := lockcore.SessionHex(u.Session)
			uj.Session = &s
		}
		out.Undated = append(out.Undated, uj)
	}
	if r.Failure != "" {
		out.Errors = append(out.Errors, r.Failure)
	}
	for _, f := range r.Findings {
		fj := findingJSON{Status: f.Status.String(), Lock: f.Lock, Recipe: string(f.Recipe), Kind: f.Kind, Nodes: nonNil(f.Nodes),
			Detail: f.Detail, Holders: f.Holders, Waiters: f.Waiters, OldestHoldMs: f.OldestHold.Milliseconds(),
			OldestHoldAtMostMs: f.OldestHoldAtMost.Milliseconds(), Assumed: f.Assumed}
		if f.HasWaiter {
			ms := f.OldestWait.Milliseconds()
			fj.OldestWaitMs = &ms
		}
		if f.Session != 0 {
			s := lockcore.SessionHex(f.Session)
			fj.Session = &s
		}
		if f.Client.Addr != "" {
			fj.Client = &f.Client.Addr
		}
		if f.HolderSession != 0 {
			s := lockcore.SessionHex(f.HolderSession)
			fj.HolderSession = &s
			if f.HolderClient.Addr != "" {
				fj.HolderClient = &f.HolderClient.Addr
			}
		}
		out.Findings = append(out.Findings, fj)
	}
	return model.WriteJSON(w, out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
