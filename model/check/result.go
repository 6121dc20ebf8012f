package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// Result is a check's answer: the findings, what they add up to, and what
// the check could not see.
type Result struct {
	// Locks is how many locks were judged; Holders and Waiters their
	// totals; OldestWait the longest any waiter has waited (elections
	// aside).
	Locks, Holders, Waiters int
	OldestWait              time.Duration
	Findings                []Finding
	Thresholds              Thresholds
	// Undated are the holders that may have held past a hold threshold
	// but whose grant one read cannot date: not findings, as nothing is
	// proven, but said rather than counted as holds of 0.
	Undated []Undated
	// UnknownLinks counts the holders whose session's connection the
	// servers' cons could not tell (not every member answered), and
	// LinksNote says why: the disconnected-holder kind cannot be judged
	// for them.
	UnknownLinks int
	LinksNote    string
	// Partial, when not empty, says why the locks judged may not be every
	// lock asked about (a search that stopped short, paths denied); with
	// RequireComplete it makes the status UNKNOWN.
	Partial         []string
	RequireComplete bool
	// Errors are reads that failed: with no critical finding they make
	// the status UNKNOWN, as what was not read could be anything.
	Errors []string
	// Failure, when set, is why nothing could be judged (no server
	// answered, bad flags): the status is UNKNOWN.
	Failure string
}

// Status is the result's verdict: UNKNOWN when nothing could be judged;
// CRITICAL for any critical finding; UNKNOWN when reads failed, or the
// search was partial and RequireComplete is set; else WARNING for any
// warning finding, else OK. A partial search without RequireComplete is a
// note, not a verdict: a dump-guided search misses only locks whose
// contenders are all persistent nodes, and saying UNKNOWN on every run of
// a large cluster would teach people to ignore the check.
func (r Result) Status() Status {
	if r.Failure != "" {
		return Unknown
	}
	worst := OK
	for _, f := range r.Findings {
		worst = max(worst, f.Status)
	}
	switch {
	case worst == Critical:
		return Critical
	case len(r.Errors) > 0, r.RequireComplete && !r.Complete():
		return Unknown
	}
	return worst
}

// Complete reports whether every lock asked about was judged on every
// kind the thresholds list: the search was not partial, and no listed
// kind was left unjudged.
func (r Result) Complete() bool { return len(r.Partial) == 0 && len(r.Unjudged()) == 0 }

// Unjudged says, for each listed anomaly kind that could not be judged,
// why: today disconnected-holder and silent-holder, which need every
// member's cons (a holder no answer lists is neither connected nowhere
// nor silent, as far as anyone can tell).
func (r Result) Unjudged() []string {
	if r.UnknownLinks == 0 {
		return nil
	}
	why := r.LinksNote
	if why == "" {
		why = "not every member answered cons"
	}
	var out []string
	for _, k := range []lockcore.AnomalyKind{lockcore.AnomalyDisconnectedHolder, lockcore.AnomalySilentHolder} {
		if slices.Contains(r.Thresholds.Critical, k) || slices.Contains(r.Thresholds.Warning, k) {
			out = append(out, fmt.Sprintf("%s not judged for %d %s (%s)", k, r.UnknownLinks, plural(r.UnknownLinks, "holder", "holders"), why))
		}
	}
	return out
}

// SetClients fills in each finding's client, and a wait finding's
// holder's, from client (what the servers' cons said of a session).
func (r *Result) SetClients(client func(session int64) model.Client) {
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Client = client(f.Session)
		if f.HolderSession != 0 {
			f.HolderClient = client(f.HolderSession)
		}
	}
}

// Summary is the first line monitoring systems show: the status, how many
// of how many locks are stuck or need a look and why, what could not be
// seen.
func (r Result) Summary() string {
	st := r.Status()
	var b strings.Builder
	b.WriteString(st.String())
	b.WriteString(": ")
	if r.Failure != "" {
		b.WriteString(model.Printable(r.Failure))
		return b.String()
	}
	crit, warn := r.locksAt(Critical), r.locksAt(Warning)
	switch {
	case len(crit) > 0:
		fmt.Fprintf(&b, "%s of %s stuck: %s", count(len(crit)), locks(r.Locks), r.reasons(crit, Critical))
		if len(warn) > 0 {
			fmt.Fprintf(&b, "; %s more %s a look", count(len(warn)), plural(len(warn), "needs", "need"))
		}
	case len(warn) > 0:
		fmt.Fprintf(&b, "%s of %s %s a look: %s", count(len(warn)), locks(r.Locks), plural(len(warn), "needs", "need"), r.reasons(warn, Warning))
	default:
		fmt.Fprintf(&b, "%s, none stuck or over a threshold", locks(r.Locks))
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, "; %s %s: %s", count(len(r.Errors)), plural(len(r.Errors), "read failed", "reads failed"), model.Printable(r.Errors[0]))
		if len(r.Errors) > 1 {
			b.WriteString(", …")
		}
	}
	for _, p := range r.Partial {
		b.WriteString("; partial: ")
		b.WriteString(model.Printable(p))
	}
	for _, u := range r.Unjudged() {
		b.WriteString("; ")
		b.WriteString(model.Printable(u))
	}
	if n := len(r.Undated); n > 0 {
		fmt.Fprintf(&b, "; %s %s may be past the hold threshold but cannot be dated from one read (see --warn-wait)",
			count(n), plural(n, "hold", "holds"))
	}
	return b.String()
}

// maxSummaryLocks is how many locks the summary names before "and N more".
const maxSummaryLocks = 5

// locksAt lists the locks whose worst finding has status st, in the
// findings' order.
func (r Result) locksAt(st Status) []string {
	worst := map[string]Status{}
	var order []string
	for _, f := range r.Findings {
		if _, seen := worst[f.Lock]; !seen {
			order = append(order, f.Lock)
		}
		worst[f.Lock] = max(worst[f.Lock], f.Status)
	}
	var out []string
	for _, l := range order {
		if worst[l] == st {
			out = append(out, l)
		}
	}
	return out
}

// reasons names each lock with its kinds of status st: "/locks/orders
// wait-cycle, /locks/billing unwatched-waiter+long-held".
func (r Result) reasons(locks []string, st Status) string {
	parts := make([]string, 0, maxSummaryLocks+1)
	for i, l := range locks {
		if i == maxSummaryLocks {
			parts = append(parts, fmt.Sprintf("and %s more", count(len(locks)-i)))
			break
		}
		var kinds []string
		for _, f := range r.Findings {
			if f.Lock == l && f.Status == st && !slices.Contains(kinds, f.Kind) {
				kinds = append(kinds, f.Kind)
			}
		}
		parts = append(parts, model.Printable(l)+" "+strings.Join(kinds, "+"))
	}
	return strings.Join(parts, ", ")
}

// locks is "1 lock" or "1,314 locks".
func locks(n int) string { return count(n) + " " + plural(n, "lock", "locks") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count formats n with thousands separators: 1,314.
func count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
