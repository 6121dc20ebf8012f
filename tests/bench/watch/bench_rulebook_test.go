package watch

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

const (
	// maxRuleBookRatio: discovery with benchUserEntries of the user's own
	// entries loaded may take at most this many times discovery without.
	maxRuleBookRatio = 1.1
	benchUserEntries = 50
	// ruleBookRounds is discoveryRounds for this comparison: more rounds,
	// as the two sides differ by far less than the floor and the watcher.
	ruleBookRounds = 5
)

// benchBook is a rule book of benchUserEntries entries as teams write
// them: each for its own paths (half under a literal root, half anywhere
// below, "**"), of every grant, none describing the benchmark's locks, so
// that each costs discovery and analysis its whole check, and no lock
// changes hands for it.
func benchBook(tb testing.TB) *lockcore.Book {
	tb.Helper()
	grants := []lockcore.Entry{
		{Children: "{owner}~{mode}~{seq}", Modes: map[string]lockcore.Mode{"rd": lockcore.ModeRead, "wr": lockcore.ModeWrite}, Grant: lockcore.GrantReadWrite},
		{Children: "cand-{id:word}-{seq}", Grant: lockcore.GrantElection, Identity: "name:id"},
		{Children: "{owner}.{mode}.{seq}", Modes: map[string]lockcore.Mode{"S": lockcore.ModeRead, "X": lockcore.ModeWrite}, Grant: lockcore.GrantCoHolding},
		{Children: "slot-{session}-{seq}", Grant: lockcore.GrantSemaphore, Limit: "3"},
		{Children: "ticket-{seq}", Grant: lockcore.GrantMutex, Identity: "json:host"},
	}
	var entries []lockcore.Entry
	for i := range benchUserEntries {
		e := grants[i%len(grants)]
		e.Name = fmt.Sprintf("team%02d", i)
		e.Paths = []string{fmt.Sprintf("/team%02d/locks/*", i)}
		if i%2 == 1 {
			e.Paths = []string{fmt.Sprintf("/**/team%02d/locks/*", i)}
		}
		entries = append(entries, e)
	}
	b, err := lockcore.NewBook(entries)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// benchRuleBook times discovery with the user's entries loaded against
// discovery without them, in paired rounds, alternating which goes first.
func benchRuleBook(b *testing.B, env *benchEnv, r *benchReport) {
	book := benchBook(b)
	defer func() { env.book = nil }()
	var with, without []time.Duration
	var ratios []float64
	for range b.N {
		for round := range ruleBookRounds {
			walk := func(bk *lockcore.Book) time.Duration {
				env.book = bk
				return watcherWalk(b, env)
			}
			var w, wo time.Duration
			if round%2 == 0 {
				wo, w = walk(nil), walk(book)
			} else {
				w, wo = walk(book), walk(nil)
			}
			with, without = append(with, w), append(without, wo)
			ratios = append(ratios, float64(w)/float64(wo))
		}
	}
	b.Logf("rounds: with %d entries %s; without %s", benchUserEntries, joinDurs(with), joinDurs(without))
	slices.Sort(ratios)
	ratio := ratios[(len(ratios)-1)/2]
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ratio, "ratio")
	r.add(benchRow{metric: fmt.Sprintf("discovery with %d user entries, median of %d paired rounds", benchUserEntries, len(ratios)),
		ours: fmtDur(median(with)), base: fmtDur(median(without)), ratio: fmt.Sprintf("%.2f×", ratio),
		target: fmt.Sprintf("≤ %.2f×", maxRuleBookRatio), verdict: verdict(ratio <= maxRuleBookRatio)})
}
