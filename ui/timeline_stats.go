package ui

import (
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/model"
)

// histBuckets are the histogram's upper bounds; the last bucket is open.
var histBuckets = []time.Duration{10 * time.Millisecond, 100 * time.Millisecond, time.Second, 10 * time.Second, time.Minute}

var histLabels = []string{"<10ms", "<100ms", "<1s", "<10s", "<1m", "≥1m"}

func sortDurations(d []time.Duration) { slices.Sort(d) }

// statsHeight is how many lines the statistics take at this height: the
// histogram goes first when room is short.
func (p *timelinePane) statsHeight() int {
	if p.h >= 18 {
		return 3 + len(histLabels)
	}
	return 2
}

// stats are the percentile lines and, with room, the histogram.
func (p *timelinePane) stats(t model.LockTimes) []string {
	st := p.env.st
	line := func(name string, d []time.Duration) string {
		if len(d) == 0 {
			return " " + st.strong.s(fit(name, 24)) + st.muted.s("none ended in this window")
		}
		return " " + st.strong.s(fit(name, 24)) + "n " + itoa(len(d)) +
			"  p50 " + model.Duration(model.Percentile(d, 0.5)) + "  p90 " + model.Duration(model.Percentile(d, 0.9)) +
			"  p99 " + model.Duration(model.Percentile(d, 0.99)) + "  max " + model.Duration(d[len(d)-1])
	}
	lines := []string{line("wait (join → grant)", t.Waits), line("hold (grant → release)", t.Holds)}
	if p.statsHeight() == 2 {
		return lines
	}
	wc, hc := histogram(t.Waits), histogram(t.Holds)
	most := 1
	for i := range wc {
		most = max(most, wc[i], hc[i])
	}
	barW := max((p.w-13)/2-6, 4)
	lines = append(lines, " "+st.muted.s(fit("", 8)+fit("waits", barW+6)+"  holds"))
	for i, label := range histLabels {
		lines = append(lines, " "+fit(label, 8)+p.histBar(wc[i], most, barW, st.waiter)+"  "+p.histBar(hc[i], most, barW, st.holder))
	}
	return lines
}

// histBar is one bucket's bar, its count after it.
func (p *timelinePane) histBar(n, most, w int, pt paint) string {
	cells := 0
	if n > 0 {
		cells = max(1, n*w/most)
	}
	bar := pt.s(strings.Repeat("■", cells)) + strings.Repeat(" ", w-cells)
	return bar + " " + fit(itoa(n), 5)
}

// histogram counts durations per bucket.
func histogram(d []time.Duration) []int {
	c := make([]int, len(histLabels))
	for _, x := range d {
		i := 0
		for i < len(histBuckets) && x >= histBuckets[i] {
			i++
		}
		c[i]++
	}
	return c
}
