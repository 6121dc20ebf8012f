// Package fleet sums up every cluster of the config file, one row each:
// whether a poll reached it, its locks, the worst thing found there and
// its longest wait, judged as `zklocks check` judges (model/check).
// The rows feed the UI's fleet screen and `zklocks ls --all-contexts` and
// `check --all-contexts`, worst first.
//
// A row is what one light poll saw (a session, one read of every lock
// under the roots, no watch left behind), never a live picture: each
// carries the time it was read. The package does no I/O itself besides
// writing its output: the caller's Probe reads a cluster, and Poller
// runs the probes again and again.
package fleet

import (
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/check"
)

// Reach says what became of a cluster's last poll.
type Reach int

// Reaches. Pending is the zero value: a row not polled yet.
const (
	// Pending: not polled yet.
	Pending Reach = iota
	// Reached: a session was made and every lock under the roots read.
	Reached
	// Unreachable: no server answered in time, or each refused.
	Unreachable
	// Failed: the context cannot be used (a password file missing), or
	// the search did not finish (the connection was lost on the way).
	Failed
)

func (r Reach) String() string {
	switch r {
	case Reached:
		return "connected"
	case Unreachable:
		return "unreachable"
	case Failed:
		return "failed"
	}
	return "polling"
}

// Cluster is one context's row.
type Cluster struct {
	// Name is the context's name, Server its connect string.
	Name, Server string
	Reach        Reach
	// Err says why the cluster was not reached (Unreachable, Failed), or
	// why its search did not finish; "" when it was.
	Err string
	// Result is the check of the cluster's locks; meaningful only when
	// Reached.
	Result check.Result
	// Worst is the worst thing found: the first finding, else the most
	// severe anomaly below every threshold; its Kind is "" when none.
	Worst Worst
	// At is when the poll ended, and Took how long it took.
	At   time.Time
	Took time.Duration
	// Down is when the polls started failing in a row (the first failed
	// poll's end), for rows that are not Reached; set by the Poller.
	Down time.Time
}

// Worst is the worst thing a poll found in a cluster.
type Worst struct {
	// Kind is a check finding's kind (an anomaly kind, "wait", "waiters")
	// or an anomaly kind no threshold lists; "" when there is nothing.
	Kind string
	// Lock is the lock it was found in.
	Lock string
	// Status is the finding's status; OK for an anomaly no threshold
	// lists.
	Status check.Status
}

// Summarize makes a reached cluster's row from its locks and their check.
func Summarize(name, server string, locks []*lockcore.Lock, r check.Result) Cluster {
	c := Cluster{Name: name, Server: server, Reach: Reached, Result: r}
	if len(r.Findings) > 0 {
		// Evaluate puts the critical findings first.
		f := r.Findings[0]
		c.Worst = Worst{Kind: f.Kind, Lock: f.Lock, Status: f.Status}
		return c
	}
	var kinds []lockcore.AnomalyKind
	where := map[lockcore.AnomalyKind]string{}
	for _, l := range locks {
		for _, a := range l.Anomalies {
			if _, seen := where[a.Kind]; !seen {
				where[a.Kind] = l.Path
				kinds = append(kinds, a.Kind)
			}
		}
	}
	if k := lockcore.Worst(kinds); k != "" {
		c.Worst = Worst{Kind: string(k), Lock: where[k], Status: check.OK}
	}
	return c
}

// Status is the row's verdict: its check's when reached, UNKNOWN when not
// (what cannot be read could be anything).
func (c Cluster) Status() check.Status {
	if c.Reach != Reached {
		return check.Unknown
	}
	return c.Result.Status()
}

// rank orders statuses worst first: CRITICAL, then UNKNOWN (a cluster
// nobody can see), WARNING, OK, and rows not polled yet last.
func (c Cluster) rank() int {
	if c.Reach == Pending {
		return 4
	}
	switch c.Status() {
	case check.Critical:
		return 0
	case check.Unknown:
		return 1
	case check.Warning:
		return 2
	}
	return 3
}

// Sort orders rows worst first; among equals, the longest wait first,
// then by name.
func Sort(rows []Cluster) {
	slices.SortStableFunc(rows, func(a, b Cluster) int {
		if d := a.rank() - b.rank(); d != 0 {
			return d
		}
		if a.Result.OldestWait != b.Result.OldestWait {
			if a.Result.OldestWait > b.Result.OldestWait {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// Overall is the fleet's verdict, as check's is for one cluster: CRITICAL
// if any cluster is, else UNKNOWN if any could not be judged (or has not
// been polled yet), else WARNING if any is, else OK.
func Overall(rows []Cluster) check.Status {
	worst := 3
	for _, c := range rows {
		r := c.rank()
		if r == 4 {
			r = 1
		}
		worst = min(worst, r)
	}
	return [...]check.Status{check.Critical, check.Unknown, check.Warning, check.OK}[worst]
}
