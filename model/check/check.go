// Package check judges locks against alerting thresholds, as `zklocks
// check` reports them to monitoring systems: a Status in the monitoring-plugin
// convention (OK, WARNING, CRITICAL, UNKNOWN), one Finding per thing that
// crossed a threshold, and the Nagios-style text and the JSON that carry
// them. It does no I/O besides writing its output: the caller reads the
// locks (lockcore analyses) and says what could not be read.
package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// Status is a check's verdict, numbered as monitoring plugins exit.
type Status int

// Statuses, in the monitoring-plugin convention (Nagios, Icinga, Sensu,
// Zabbix's and Checkmk's plugin runners).
const (
	OK       Status = 0
	Warning  Status = 1
	Critical Status = 2
	Unknown  Status = 3
)

func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case Warning:
		return "WARNING"
	case Critical:
		return "CRITICAL"
	}
	return "UNKNOWN"
}

// Kinds of findings that are thresholds of the check's, not anomalies of
// the analysis: KindWaiters, a queue at or over a waiters threshold;
// KindWait, a waiter that has waited at or over a wait threshold.
const (
	KindWaiters = "waiters"
	KindWait    = "wait"
)

// Finding is one thing that crossed a threshold: an anomaly of a kind the
// thresholds list, a long hold, or a long queue.
type Finding struct {
	Status Status
	Lock   string
	Recipe lockcore.Recipe
	// Kind is the anomaly kind, or KindWaiters.
	Kind string
	// Nodes are the nodes involved (relative to the lock, as
	// Participant.Node): the anomaly's, or for a long queue its holders.
	Nodes []string
	// Session is the session concerned (0: none, or a persistent node),
	// and Client what the servers said of its client.
	Session int64
	Client  model.Client
	// HolderSession, for a wait finding, is the session of the holder the
	// queue waits behind (the longest-holding one where several hold; 0
	// when nobody holds), and HolderClient what the servers said of its
	// client: whom to page about.
	HolderSession int64
	HolderClient  model.Client
	// Detail is a sentence of evidence.
	Detail string
	// The lock's figures, for graphing. OldestHold is the longest hold
	// known (see lockcore.Lock.KnownHold), never a node's age, and
	// OldestHoldAtMost the longest the holders may have held (the node's
	// age where a grant cannot be dated). OldestWait is how long the
	// oldest waiter has waited, by its node's ctime; HasWaiter says
	// whether a node waits at all.
	Holders, Waiters int
	OldestHold       time.Duration
	OldestHoldAtMost time.Duration
	OldestWait       time.Duration
	HasWaiter        bool
	// Assumed: the finding rests on what the analysis assumed of a lock no
	// rule book entry describes (lockcore.Lock.Assumed): it is at most a
	// warning, never critical, and its detail says what was assumed.
	Assumed bool
}

// Undated is a holder whose hold may have passed a hold threshold but
// cannot be dated from one read: it got the lock at some moment between
// its node's creation and the read (typically when its predecessor left,
// which ZooKeeper keeps no time for), so the hold thresholds, which judge
// only what is proven, cannot count it. The wait thresholds judge the
// queue behind it exactly.
type Undated struct {
	Lock    string
	Node    string
	Session int64
	// AtLeast and AtMost bound the hold: what the read proves (often
	// 0), and the time since the node was created.
	AtLeast, AtMost time.Duration
	Detail          string
}

// Evaluate judges each lock against t. Findings come critical first, then
// by lock path, each lock's in the analysis' order; the clients are left
// for SetClients. The locks are the whole picture only if the caller says
// so (see Result.Partial).
func Evaluate(locks []*lockcore.Lock, t Thresholds) Result {
	r := Result{Locks: len(locks), Thresholds: t}
	for _, l := range locks {
		r.Findings = append(r.Findings, lockFindings(l, t)...)
		r.Holders += l.Holders()
		r.Waiters += l.Waiters()
		if _, wait, ok := l.OldestWaiter(l.ReadAt); ok && !l.Elects() {
			r.OldestWait = max(r.OldestWait, wait)
		}
		for _, a := range l.MaybeLongHeld {
			u := Undated{Lock: l.Path, Node: a.Node, Session: a.Session, Detail: a.Detail}
			if p, ok := l.Participant(a.Node); ok {
				u.AtLeast, u.AtMost = p.Hold.Min, p.Hold.Max
			}
			r.Undated = append(r.Undated, u)
		}
	}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		if a.Status != b.Status {
			return int(b.Status - a.Status)
		}
		switch {
		case a.Lock < b.Lock:
			return -1
		case a.Lock > b.Lock:
			return 1
		}
		return 0
	})
	return r
}

// CountUnknownLinks sets r.UnknownLinks from locks (those r judged) and
// their sessions' links: the holders whose connection the members' lists
// cannot tell, for which the link anomalies were not judged.
func (r *Result) CountUnknownLinks(locks []*lockcore.Lock, links lockcore.SessionLinks) {
	r.UnknownLinks = 0
	for _, l := range locks {
		for _, p := range l.Participants {
			if p.Role == lockcore.RoleHolder && links.Of(p.Session).State == lockcore.LinkUnknown {
				r.UnknownLinks++
			}
		}
	}
}

// lockFindings judges one lock.
func lockFindings(l *lockcore.Lock, t Thresholds) []Finding {
	known, atMost := l.KnownHold(l.ReadAt)
	base := Finding{Lock: l.Path, Recipe: l.Recipe, Holders: l.Holders(), Waiters: l.Waiters(), OldestHold: known, OldestHoldAtMost: atMost}
	oldest, wait, waiting := l.OldestWaiter(l.ReadAt)
	base.OldestWait, base.HasWaiter = wait, waiting
	var out []Finding
	for _, a := range l.Anomalies {
		st := t.severity(l, a)
		if st == OK {
			continue
		}
		f := base
		f.Status, f.Kind, f.Nodes, f.Session, f.Detail = st, string(a.Kind), a.Nodes, a.Session, a.Detail
		if len(f.Nodes) == 0 && a.Node != "" {
			f.Nodes = []string{a.Node}
		}
		out = append(out, f)
	}
	st := OK
	switch w := l.Waiters(); {
	case t.CritWaiters > 0 && w >= t.CritWaiters:
		st = Critical
	case t.WarnWaiters > 0 && w >= t.WarnWaiters:
		st = Warning
	}
	if st != OK {
		f := base
		f.Status, f.Kind = st, KindWaiters
		f.Detail = fmt.Sprintf("%d waiting, at or over the %s threshold of %d", f.Waiters, st, t.waitersThreshold(st))
		oldest := time.Duration(-1)
		for _, p := range l.Participants {
			if p.Role != lockcore.RoleHolder || p.PartOf != "" {
				continue
			}
			f.Nodes = append(f.Nodes, p.Node)
			if p.Hold.Max > oldest {
				oldest, f.Session = p.Hold.Max, p.Session
			}
		}
		out = append(out, f)
	}
	if f, ok := t.waitFinding(l, base, oldest); ok {
		out = append(out, f)
	}
	if len(l.Assumed) > 0 {
		for i := range out {
			// Roles, modes and watches were guessed: nothing proves the
			// lock stuck, so nobody is paged for it.
			out[i].Status = min(out[i].Status, Warning)
			out[i].Assumed = true
			out[i].Detail += " (rests on an assumption: " + strings.Join(l.Assumed, "; ") + ")"
		}
	}
	return out
}

// waitFinding is the finding of a lock whose oldest waiter (oldest, with
// base's figures) has waited past a wait threshold.
func (t Thresholds) waitFinding(l *lockcore.Lock, base Finding, oldest lockcore.Participant) (Finding, bool) {
	if !base.HasWaiter || l.Elects() {
		return Finding{}, false
	}
	f := base
	switch w := base.OldestWait; {
	case t.CritWait > 0 && w >= t.CritWait:
		f.Status = Critical
	case t.WarnWait > 0 && w >= t.WarnWait:
		f.Status = Warning
	default:
		return Finding{}, false
	}
	threshold := t.WarnWait
	if f.Status == Critical {
		threshold = t.CritWait
	}
	f.Kind, f.Nodes, f.Session = KindWait, []string{oldest.Node}, oldest.Session
	if h, ok := longestHolder(l); ok {
		f.HolderSession = h.Session
	}
	f.Detail = fmt.Sprintf("the oldest waiter has waited %s (its node was created at %s), at or over the %s threshold of %s",
		model.Duration(f.OldestWait.Truncate(time.Second)), oldest.Ctime.UTC().Format(time.RFC3339), f.Status, model.Duration(threshold))
	f.Detail += "; " + holdersText(l)
	return f, true
}

// longestHolder is the holder of l that may have held longest; ok is
// false when nobody holds.
func longestHolder(l *lockcore.Lock) (lockcore.Participant, bool) {
	var best lockcore.Participant
	ok := false
	for _, p := range l.Participants {
		if p.Role != lockcore.RoleHolder || p.PartOf != "" {
			continue
		}
		if !ok || p.Hold.Max > best.Hold.Max {
			best, ok = p, true
		}
	}
	return best, ok
}

// holdersText says who holds l and for how long, as far as one read
// proves: "held by _c_a…-lock-07 (session 0x300) for between 0ms and
// 11m00s".
func holdersText(l *lockcore.Lock) string {
	var holders []lockcore.Participant
	for _, p := range l.Participants {
		if p.Role == lockcore.RoleHolder && p.PartOf == "" {
			holders = append(holders, p)
		}
	}
	switch len(holders) {
	case 0:
		return "nobody holds"
	case 1:
	default:
		return fmt.Sprintf("%d holding", len(holders))
	}
	p := holders[0]
	held := "for " + model.Duration(p.Hold.Min)
	if !p.Hold.Exact() {
		held = fmt.Sprintf("for between %s and %s, as its grant cannot be dated", model.Duration(p.Hold.Min), model.Duration(p.Hold.Max))
	}
	return fmt.Sprintf("held by %s (session %s) %s", model.ShortNode(p.Node), model.SessionText(p.Session), held)
}

func (t Thresholds) waitersThreshold(st Status) int {
	if st == Critical {
		return t.CritWaiters
	}
	return t.WarnWaiters
}

// severity is what anomaly a of lock l counts as: OK when not reported.
func (t Thresholds) severity(l *lockcore.Lock, a lockcore.Anomaly) Status {
	if a.Kind == lockcore.AnomalyLongHeld && t.CritHeld > 0 {
		if p, ok := l.Participant(a.Node); ok && holdOf(p) >= t.CritHeld {
			return Critical
		}
		if t.WarnHeld == 0 {
			// The analysis reported it against --crit-held alone.
			return OK
		}
	}
	switch {
	case slices.Contains(t.Critical, a.Kind):
		return Critical
	case slices.Contains(t.Warning, a.Kind):
		return Warning
	}
	return OK
}

// holdOf is how long holder p is known to have held: its hold's lower
// bound, the hold itself when its grant is known, as the long-held anomaly
// judges it; never the node's age, which includes its time in the queue.
func holdOf(p lockcore.Participant) time.Duration { return p.Hold.Min }
