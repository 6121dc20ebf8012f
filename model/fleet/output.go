package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
)

// Summary is the fleet's one line, as monitoring systems show it: the
// verdict, then the clusters at each status worst first, named.
func Summary(rows []Cluster) string {
	var b strings.Builder
	b.WriteString(Overall(rows).String())
	fmt.Fprintf(&b, ": %d %s", len(rows), plural(len(rows), "cluster", "clusters"))
	for _, st := range []check.Status{check.Critical, check.Unknown, check.Warning} {
		var names []string
		for _, c := range rows {
			if c.Status() == st || (st == check.Unknown && c.Reach == Pending) {
				names = append(names, model.Printable(c.Name))
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, "; %d %s: %s", len(names), strings.ToLower(st.String()), strings.Join(names, ", "))
		}
	}
	return b.String()
}

// Line is a row's verdict in one line: "CRITICAL prod: 1 of 12 locks
// stuck: /locks/orders wait", or what kept the cluster from being read.
func (c Cluster) Line() string {
	name := model.Printable(c.Name)
	switch c.Reach {
	case Reached:
		_, why, _ := strings.Cut(c.Result.Summary(), ": ")
		return fmt.Sprintf("%s %s: %s", c.Status(), name, why)
	case Pending:
		return fmt.Sprintf("%s %s: not polled yet", check.Unknown, name)
	}
	return fmt.Sprintf("%s %s: %s: %s", check.Unknown, name, c.Reach, model.Printable(c.Err))
}

// WriteCheckText writes check --all-contexts: the fleet's summary line
// with how many clusters are at each status as performance data, one line
// per cluster, worst first, then each cluster's figures as performance
// data after a "|" line, as the plugin guidelines have a long output end.
//
//	CRITICAL: 3 clusters; 1 critical: east | clusters=3;;;0 critical=1;;;0 unknown=0;;;0 warning=0;;;0
//	CRITICAL east: 1 of 1 lock stuck: /locks/orders wait
//	| 'east:read'=1;;;0;1 'east:locks'=1;;;0 'east:waiters'=1;;;0 'east:oldest_wait'=63s;;;0 ...
func WriteCheckText(w io.Writer, rows []Cluster) error {
	var b strings.Builder
	b.WriteString(Summary(rows))
	at := map[check.Status]int{}
	for _, c := range rows {
		at[c.Status()]++
	}
	fmt.Fprintf(&b, " | clusters=%d;;;0 critical=%d;;;0 unknown=%d;;;0 warning=%d;;;0\n", len(rows), at[check.Critical],
		at[check.Unknown], at[check.Warning])
	var perf []string
	for _, c := range rows {
		b.WriteString(c.Line())
		b.WriteByte('\n')
		read := 0
		if c.Reach == Reached {
			read = 1
		}
		perf = append(perf, fmt.Sprintf("%s=%d;;;0;1", check.PerfLabel(c.Name, "read"), read))
		if c.Reach == Reached {
			r := c.Result
			perf = append(perf, fmt.Sprintf("%s=%d;;;0", check.PerfLabel(c.Name, "locks"), r.Locks),
				fmt.Sprintf("%s=%d;;;0", check.PerfLabel(c.Name, "waiters"), r.Waiters),
				fmt.Sprintf("%s=%ss;;;0", check.PerfLabel(c.Name, "oldest_wait"),
					check.PerfSeconds(r.OldestWait)))
		}
	}
	if len(perf) > 0 {
		b.WriteString("| " + strings.Join(perf, " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteListText writes ls --all-contexts: a table of one line per
// cluster, worst first. A cluster not read says why in place of its
// figures.
func WriteListText(w io.Writer, rows []Cluster) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONTEXT\tSTATUS\tSTATE\tLOCKS\tHOLDERS\tWAITERS\tLONGEST WAIT\tWORST")
	for _, c := range rows {
		name := model.Printable(c.Name)
		if c.Reach != Reached {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t%s\n", name, c.Status(), c.Reach, c.Why())
			continue
		}
		r := c.Result
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", name, c.Status(), c.Reach, r.Locks, r.Holders, r.Waiters,
			LongestWait(c), c.Why())
	}
	return tw.Flush()
}

// LongestWait is the row's longest wait as shown, "-" with no waiter
// (leader elections aside) or when the cluster was not read.
func LongestWait(c Cluster) string {
	if c.Reach != Reached || c.Result.Waiters == 0 || c.Result.OldestWait <= 0 {
		return "-"
	}
	return model.Duration(c.Result.OldestWait.Truncate(time.Second))
}

// Why is what the row's WORST column says, escaped: the worst finding or
// anomaly; for a cluster read but not judged (reads failed), its check's
// reason; for one not read, why; else "-".
func (c Cluster) Why() string {
	switch {
	case c.Reach == Pending:
		return ""
	case c.Reach != Reached:
		return model.Printable(c.Err)
	case c.Worst.Kind != "":
		return c.Worst.String()
	case c.Status() == check.Unknown:
		_, why, _ := strings.Cut(c.Result.Summary(), ": ")
		return why
	}
	return "-"
}

// String is "wait /locks/orders", or "-" for nothing; escaped.
func (w Worst) String() string {
	if w.Kind == "" {
		return "-"
	}
	return model.Printable(w.Kind + " " + w.Lock)
}

// clusterJSON is one cluster of ls and check --all-contexts --json: a
// contract with scripts.
type clusterJSON struct {
	Context      string     `json:"context"`
	Server       string     `json:"server"`
	Status       string     `json:"status"`
	Code         int        `json:"code"`
	State        string     `json:"state"`
	Error        *string    `json:"error"`
	Locks        int        `json:"locks"`
	Holders      int        `json:"holders"`
	Waiters      int        `json:"waiters"`
	OldestWaitMs int64      `json:"oldest_wait_ms"`
	Worst        *worstJSON `json:"worst"`
	PolledAt     *string    `json:"polled_at"`
	TookMs       int64      `json:"took_ms"`
	// Check is the cluster's own check --json object (check only).
	Check json.RawMessage `json:"check,omitempty"`
}

type worstJSON struct {
	Kind   string `json:"kind"`
	Lock   string `json:"lock"`
	Status string `json:"status"`
}

type fleetJSON struct {
	Status   string        `json:"status"`
	Code     int           `json:"code"`
	Summary  string        `json:"summary"`
	Clusters []clusterJSON `json:"clusters"`
}

// WriteJSON writes the rows for scripts, worst first, with each reached
// cluster's whole check object when withCheck.
func WriteJSON(w io.Writer, rows []Cluster, withCheck bool) error {
	st := Overall(rows)
	out := fleetJSON{Status: st.String(), Code: int(st), Summary: Summary(rows), Clusters: []clusterJSON{}}
	for _, c := range rows {
		cj := clusterJSON{Context: c.Name, Server: c.Server, Status: c.Status().String(), Code: int(c.Status()),
			State: c.Reach.String(), TookMs: c.Took.Milliseconds()}
		if !c.At.IsZero() {
			at := c.At.UTC().Format(time.RFC3339)
			cj.PolledAt = &at
		}
		if c.Reach != Reached {
			e := c.Err
			cj.Error = &e
			cj.Code, cj.Status = int(check.Unknown), check.Unknown.String()
			out.Clusters = append(out.Clusters, cj)
			continue
		}
		r := c.Result
		cj.Locks, cj.Holders, cj.Waiters, cj.OldestWaitMs = r.Locks, r.Holders, r.Waiters, r.OldestWait.Milliseconds()
		if c.Worst.Kind != "" {
			cj.Worst = &worstJSON{Kind: c.Worst.Kind, Lock: c.Worst.Lock, Status: c.Worst.Status.String()}
		}
		if withCheck {
			var buf bytes.Buffer
			if err := r.WriteJSON(&buf); err != nil {
				return err
			}
			cj.Check = json.RawMessage(bytes.TrimSpace(buf.Bytes()))
		}
		out.Clusters = append(out.Clusters, cj)
	}
	return model.WriteJSON(w, out)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
