package watch

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// benchReport gathers the sub-benchmarks' figures for one table.
type benchReport struct {
	mu   sync.Mutex
	rows []benchRow
}

// benchRow is one line of the table: ours against the floor (or the raw
// watch), and the target the ratio, or ours alone, must meet.
type benchRow struct {
	metric, ours, base, ratio, target string
	// verdict is "pass", "FAIL", or empty for a figure with no target.
	verdict string
}

func (r *benchReport) add(row benchRow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, row)
}

// compare adds a row for ours against base with a target on the ratio
// (zero: no target).
func (r *benchReport) compare(metric string, ours, base time.Duration, maxRatio float64) {
	ratio := float64(ours) / float64(base)
	row := benchRow{metric: metric, ours: fmtDur(ours), base: fmtDur(base), ratio: fmt.Sprintf("%.2f×", ratio)}
	if maxRatio > 0 {
		row.target = fmt.Sprintf("≤ %.2f×", maxRatio)
		row.verdict = verdict(ratio <= maxRatio)
	}
	r.add(row)
}

func (r *benchReport) print(w io.Writer, env *benchEnv) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nzkwatch against ZooKeeper %s: %d lock parents × %d contenders = %d znodes, concurrency %d\n\n",
		env.zks.Addr(), benchParents, benchContenders, env.znodes, benchConcurrency)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METRIC\tOURS\tFLOOR/RAW\tRATIO\tTARGET\tRESULT")
	failed := 0
	for _, row := range r.rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", row.metric, dash(row.ours), dash(row.base), dash(row.ratio), dash(row.target), dash(row.verdict))
		if row.verdict == "FAIL" {
			failed++
		}
	}
	tw.Flush()
	if failed > 0 {
		fmt.Fprintf(w, "\n%d target(s) missed\n", failed)
	} else {
		fmt.Fprintln(w, "\nevery target met")
	}
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// fmtDur prints a duration with three significant figures or so.
func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%dµs", d.Microseconds())
}

// quantile returns the q-quantile (0..1) of ds by the nearest-rank method;
// ds is sorted in place.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	i := int(q*float64(len(ds))+0.999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// median of ds, which it sorts.
func median(ds []time.Duration) time.Duration { return quantile(ds, 0.5) }

// ms turns a duration into milliseconds for b.ReportMetric.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// joinDurs lists durations for a log line.
func joinDurs(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = fmtDur(d)
	}
	return strings.Join(s, " ")
}
