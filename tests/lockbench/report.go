package lockbench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"text/tabwriter"
	"time"
)

// Report gathers Results for one table. The zero Report is ready to use;
// it is not safe for concurrent use.
type Report struct {
	// Header is printed above the table (the server, the machine, the
	// windows).
	Header  string
	results []Result
}

// Add records r. Results of the same client and contender count, from
// several rounds, are merged into one row (see Merge).
func (rep *Report) Add(r Result) { rep.results = append(rep.results, r) }

// rows merges the Results by client and contender count, ordered by
// contender count, then in the order they were first added.
func (rep *Report) rows() []Result {
	type key struct {
		c Client
		n int
	}
	var order []key
	groups := map[key][]Result{}
	for _, r := range rep.results {
		k := key{r.Client, r.Contenders}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	rs := make([]Result, 0, len(order))
	for _, k := range order {
		rs = append(rs, Merge(groups[k]...))
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Contenders < rs[j].Contenders })
	return rs
}

// Print writes the table, then for each contender count how our
// throughput compares with the best other client's and whether our
// notifications per release meet the target (exactly one).
func (rep *Report) Print(w io.Writer) {
	if len(rep.results) == 0 {
		return
	}
	rs := rep.rows()
	if rep.Header != "" {
		fmt.Fprintf(w, "\n%s\n\n", rep.Header)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CLIENT\tCONTENDERS\tACQ/S\t(ROUNDS)\tHANDOFF P50\tP99\tREQ/ACQ\tNOTIF/REL\tRECEIVED/REL (WAKE+OWN)\t")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t\n", r.Client, r.Contenders, r.Rate(), fmtRange(r.Rates),
			fmtDur(r.Handoff(0.50)), fmtDur(r.Handoff(0.99)), r.RequestsPerAcquisition(), r.NotificationsPerRelease(), fmtReceived(r))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, n := range contenderCounts(rs) {
		rep.verdicts(w, rs, n)
	}
}

// verdicts prints the targets' outcome for n contenders.
func (rep *Report) verdicts(w io.Writer, rs []Result, n int) {
	var ours, best, goZk, curator, sasl *Result
	for i := range rs {
		r := &rs[i]
		if r.Contenders != n {
			continue
		}
		if r.Overlaps > 0 {
			fmt.Fprintf(w, "%2d contenders: %s: MUTUAL EXCLUSION BROKEN %d times\n", n, r.Client, r.Overlaps)
		}
		if r.Disconnects > 0 {
			fmt.Fprintf(w, "%2d contenders: %s: %d connections dropped while looping; its figures include the reconnects\n", n, r.Client, r.Disconnects)
		}
		switch {
		case r.Client == Ours:
			ours = r
		case r.Client == OursSASL:
			sasl = r
		case best == nil || r.Rate() > best.Rate():
			best = r
		}
		switch r.Client {
		case GoZk:
			goZk = r
		case Curator:
			curator = r
		}
	}
	if ours == nil {
		return
	}
	if len(ours.Ops) > 0 {
		fmt.Fprintf(w, "%2d contenders: %s calls per acquisition, mean reply time: %s\n", n, Ours, fmtOps(ours.Ops, ours.Acquisitions))
	}
	rpa := ours.RequestsPerAcquisition()
	fmt.Fprintf(w, "%2d contenders: %s requests per acquisition %.2f (target ≤ 5): %s\n", n, Ours, rpa, verdict(rpa <= 5.005))
	if goZk != nil {
		ratio := ours.Rate() / goZk.Rate()
		fmt.Fprintf(w, "%2d contenders: %s %.0f acq/s vs %s %.0f acq/s = %.2f× (target ≥ 1.10×): %s%s\n",
			n, Ours, ours.Rate(), GoZk, goZk.Rate(), ratio, verdict(ratio >= 1.1), separation(*ours, *goZk))
	}
	// Both ratios, always: go-zookeeper's is the floor of our holder's
	// watch on its own node (a sixth request, which zk.Lock does not
	// make), Curator's the client most lock users run, which we stay ahead of.
	if curator != nil {
		ratio := ours.Rate() / curator.Rate()
		fmt.Fprintf(w, "%2d contenders: %s %.0f acq/s vs %s %.0f acq/s = %.2f× (target ≥ 1.00×): %s%s\n",
			n, Ours, ours.Rate(), Curator, curator.Rate(), ratio, verdict(ratio >= 1), separation(*ours, *curator))
	}
	if best != nil && best != goZk && best != curator {
		ratio := ours.Rate() / best.Rate()
		fmt.Fprintf(w, "%2d contenders: %s %.0f acq/s vs best other (%s) %.0f acq/s = %.2f× (target ≥ 1.00×): %s%s\n",
			n, Ours, ours.Rate(), best.Client, best.Rate(), ratio, verdict(ratio >= 1), separation(*ours, *best))
	}
	if sasl != nil {
		ratio := sasl.Rate() / ours.Rate()
		fmt.Fprintf(w, "%2d contenders: %s %.0f acq/s vs %s %.0f acq/s = %.2f× (target ≥ 0.95×): %s%s\n",
			n, OursSASL, sasl.Rate(), Ours, ours.Rate(), ratio, verdict(ratio >= 0.95), separation(*sasl, *ours))
		if sasl.Connects > 0 && ours.Connects > 0 {
			more := float64(sasl.ConnectRequests)/float64(sasl.Connects) - float64(ours.ConnectRequests)/float64(ours.Connects)
			fmt.Fprintf(w, "%2d contenders: %s connecting: %.2f requests more than %s, each a round trip (target ≤ 2): %s\n",
				n, OursSASL, more, Ours, verdict(more <= 2.005))
		}
	}
	npr := ours.NotificationsPerRelease()
	fmt.Fprintf(w, "%2d contenders: %s notifications per release %.2f (target exactly 1): %s\n",
		n, Ours, npr, verdict(math.Round(npr*100) == 100))

}

// separation says whether every round agrees with the verdict, when there
// were several: background load on the machine moves single windows.
func separation(ours, best Result) string {
	if len(ours.Rates) < 2 || len(best.Rates) < 2 {
		return ""
	}
	switch {
	case slices.Max(ours.Rates) < slices.Min(best.Rates):
		return " (in every round)"
	case slices.Min(ours.Rates) >= slices.Max(best.Rates):
		return " (in every round)"
	}
	return " (the rounds' ranges overlap)"
}

// fmtRange is the lowest and highest rate of the rounds, when several.
func fmtRange(rates []float64) string {
	if len(rates) < 2 {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f", slices.Min(rates), slices.Max(rates))
}

func contenderCounts(rs []Result) []int {
	var ns []int
	for _, r := range rs {
		if len(ns) == 0 || ns[len(ns)-1] != r.Contenders {
			ns = append(ns, r.Contenders)
		}
	}
	return ns
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// fmtReceived is what the contenders' connections got per release, for
// in-process clients.
func fmtReceived(r Result) string {
	if !r.Received.InProcess || r.Releases == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f+%.2f", ratio(r.Received.Wakes, r.Releases), ratio(r.Received.Own, r.Releases))
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%dµs", d.Microseconds())
}
