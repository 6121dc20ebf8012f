package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// askMember asks server for srvr, then, if it answered or refused only
// srvr, for the other words it has not refused before: cons (consEvery
// after its last ask) when its cost allows, else the last answer is kept,
// and wchs where the watch table may be read (see askSummary). Each word
// the member refuses is asked of its AdminServer instead, unless noAdmin
// says it has none. The watch table is read after, once every member's
// wchs is in (see readTables).
func (e *Enricher) askMember(ctx context.Context, server string, refused map[string]bool, noAdmin error, kept memberAnswer, consEvery time.Duration, overKnown, keptFresh bool) memberAnswer {
	a := memberAnswer{info: ServerInfo{Addr: server, AdminErr: noAdmin}, watchTotal: -1}
	var answer words.StatusAnswer
	via, ok := e.word(ctx, &a, refused, "srvr", answer.Reader(), e.wordTimeout)
	if !ok && !slices.Contains(a.info.Refused, "srvr") {
		return a // unreachable or not serving: the rest would fail too
	}
	st, err := answer.Status(via)
	if err != nil {
		a.info.Err = fmt.Errorf("zkwatch: srvr from %s: %w", server, err)
		return a
	}
	st.Addr = server
	if ok {
		a.info.Status = st
	}
	a.reached = true
	e.askCons(ctx, &a, refused, kept, consEvery)
	e.askSummary(ctx, &a, refused, kept, overKnown, keptFresh)
	return a
}

// overBudgetPeriods is how many periods a member found over the watch
// budget is taken to stay over it before wchs is asked again: its table
// could not be read sooner anyway (300 times what reading it takes, and
// tens of megabytes past the budget), and while one member's table cannot
// be read, no member's is, so no member is asked wchs meanwhile.
const overBudgetPeriods = 6

// overBudgetFresh reports whether kept says its member held more watches
// than the budget no longer than overBudgetPeriods periods ago.
func (e *Enricher) overBudgetFresh(kept memberAnswer) bool {
	return kept.watchTotal > e.budget() && e.now().Sub(kept.watchTotalAt) < overBudgetPeriods*e.interval
}

// askSummary asks, in WatchesAuto, how many watches the member holds
// (wchs), to tell whether its table may be read. While some member was
// found over the budget recently (overKnown), none is asked: that
// member's last count (keptFresh: kept's, as the ask began) is kept, and
// no table will be read.
func (e *Enricher) askSummary(ctx context.Context, a *memberAnswer, refused map[string]bool, kept memberAnswer, overKnown, keptFresh bool) {
	if e.Mode != WatchesAuto {
		return
	}
	if overKnown {
		if keptFresh {
			a.watchTotal, a.watchTotalAt = kept.watchTotal, kept.watchTotalAt
		}
		return
	}
	var text string
	total := -1
	at := e.now()
	via, ok := e.word(ctx, a, refused, "wchs", words.Reader{Text: words.TextReader(&text), JSON: words.AdminWatchSummary(&total)}, e.wordTimeout)
	var err error
	if via == words.ViaWord {
		if total, err = words.ParseWchs(text); err != nil {
			a.fail("wchs", fmt.Errorf("zkwatch: wchs from %s: %w", a.info.Addr, err))
		}
	}
	if ok && err == nil {
		a.watchTotal, a.watchTotalAt = total, at
	}
}

// summaryFailed reports whether the member was asked wchs and gave no
// count (a timeout, an answer that does not parse): whether its table
// is within the budget is unknown. A refused wchs is not a failure: the
// table is read where the word alone is refused, as before the budget.
func (a *memberAnswer) summaryFailed() bool { return a.info.Failed["wchs"] != nil }

// readTables reads the members' watch tables into answers, concurrently,
// as Mode and Budget allow. A merged table needs every member's: while
// one member holds more watches than the budget (or one cannot be
// asked), no member's table is read, but for the lock the operator
// looks at (focus), whose table is read of every member, paced by its
// cost like any table read.
func (e *Enricher) readTables(ctx context.Context, answers []memberAnswer, refused map[string]map[string]bool, kept map[string]memberAnswer, interest, focus func() Interest) {
	if e.Mode == WatchesRecipe {
		return
	}
	// A member whose count failed may hold millions of watches: its
	// table, tens of megabytes, is not read on a guess, and without it
	// no other member's is of use either (its note says why).
	over := false
	for i := range answers {
		over = over || answers[i].watchTotal > e.budget() || answers[i].summaryFailed()
	}
	of := interest
	switch {
	case len(e.Missing) > 0:
		// The picture can have no table (see withMissing).
		return
	case over && focus().Lock == "":
		for i := range answers {
			switch a := &answers[i]; {
			case a.watchTotal > e.budget():
				a.overBudget, a.budget = a.watchTotal, e.budget()
			case a.summaryFailed():
				// Noted as wchs failed (see mergeTable).
			case a.reached:
				a.tableSkipped = true
			}
		}
		return
	case over:
		of = focus
	}
	var wg sync.WaitGroup
	for i := range answers {
		if a := &answers[i]; a.reached {
			wg.Go(func() { e.askWatches(ctx, a, refused[a.info.Addr], kept[a.info.Addr], of) })
		}
	}
	wg.Wait()
}

// askCons reads the member's connections into a, or keeps the last ones
// while cons is not yet due again: every after its last ask, or later when
// its cost says so.
func (e *Enricher) askCons(ctx context.Context, a *memberAnswer, refused map[string]bool, kept memberAnswer, every time.Duration) {
	if kept.consOK && !e.Costs.Due(a.info.Addr, "cons", every) {
		a.conns, a.consOK, a.consAt, a.consDone = kept.conns, true, kept.consAt, kept.consDone
		a.silent, a.heard, a.consReused = kept.silent, kept.heard, true
		a.info.setVia("cons", kept.consVia)
		return
	}
	at := e.now()
	var text string
	var conns []words.Connection
	via, ok := e.word(ctx, a, refused, "cons", words.Reader{Text: words.TextReader(&text), JSON: words.AdminConnections(&conns)}, e.wordTimeout)
	switch via {
	case words.ViaWord:
		a.conns, a.consOK = parseWord(a, "cons", text, words.ParseCons)
	case words.ViaAdmin:
		a.conns, a.consOK = conns, ok
	}
	a.consAt, a.consVia, a.consDone = at, via, e.now()
}

// askWatches reads the member's watch table into a: wchc, or wchp where
// wchc is refused (or the AdminServer's watches where both are),
// streamed and kept to what interestOf names (asked only once the table
// is to be read). A table read less than its cost allows ago is reused.
func (e *Enricher) askWatches(ctx context.Context, a *memberAnswer, refused map[string]bool, kept memberAnswer, interestOf func() Interest) {
	interest := interestOf()
	// A table read before locks were first tracked holds none of their
	// watches: it is read again as soon as its cost allows, not a period
	// later.
	grew := interest.Gen != kept.coversGen && e.Costs.Due(a.info.Addr, kept.watchesWord, 0)
	if kept.watches != nil && !grew && !e.Costs.Due(a.info.Addr, kept.watchesWord, e.wordEvery()) {
		a.watches, a.watchesZxid, a.watchesAt, a.watchesWord, a.covers, a.watchesFor = kept.watches, kept.watchesZxid, kept.watchesAt, kept.watchesWord, kept.covers, kept.watchesFor
		a.coversGen = kept.coversGen
		a.info.setVia(kept.watchesWord, kept.watchesVia)
		return
	}
	zxid, at := a.info.Status.Zxid, e.now()
	for _, w := range []string{"wchc", "wchp"} {
		if table, via, ok := e.readTable(ctx, a, refused, w, interest); ok {
			a.watches, a.watchesZxid, a.watchesAt, a.watchesWord, a.covers, a.watchesFor = table, zxid, at, w, interest.Covers, interest.Lock
			a.coversGen, a.watchesVia = interest.Gen, via
			return
		}
		if !slices.Contains(a.info.Refused, w) {
			return // failed rather than refused: wchp would fail alike
		}
	}
}

// readTable asks for wchc or wchp (or their AdminServer commands) and
// parses the answer as it comes.
func (e *Enricher) readTable(ctx context.Context, a *memberAnswer, refused map[string]bool, w string, interest Interest) (map[int64][]string, words.Via, bool) {
	var table map[int64][]string
	jsonTable := map[int64][]string{}
	via, ok := e.word(ctx, a, refused, w, words.Reader{
		Text: func(r *bufio.Reader) error {
			var err error
			table, err = words.ParseWatchStream(w, r, interest.Within)
			return err
		},
		JSON: words.AdminWatchTable(jsonTable, interest.Within),
	}, e.tableTimeout())
	if via == words.ViaAdmin {
		words.SortTable(jsonTable)
		table = jsonTable
	}
	return table, via, ok
}

// tableTimeout bounds reading a whole watch table, which on a member with
// a million watches is tens of megabytes.
func (e *Enricher) tableTimeout() time.Duration { return max(e.wordTimeout, 30*time.Second) }

func (e *Enricher) budget() int {
	if e.Budget > 0 {
		return e.Budget
	}
	return DefaultWatchBudget
}

// word asks a.info.Addr for w within timeout: as a four-letter word unless
// the member refused it before (srvr is always asked), and by the
// AdminServer when it is refused, unless the member is known to have none
// (a.info.AdminErr). It returns the way that answered. A refusal is added
// to a.info.Refused and a missing AdminServer set as a.info.AdminErr; any
// other failure of srvr is a.info.Err, and of another word goes to
// a.info.Failed.
func (e *Enricher) word(ctx context.Context, a *memberAnswer, refused map[string]bool, w string, r words.Reader, timeout time.Duration) (words.Via, bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ways := words.Ways{TLS: e.TLS, Admin: e.Admin, Costs: e.Costs}
	start := time.Now()
	via, wordErr, adminErr := ways.Ask(ctx, a.info.Addr, w, r, w != "srvr" && refused[w], a.info.AdminErr)
	wordErr, adminErr = waited(wordErr, start), waited(adminErr, start)
	if errors.Is(wordErr, words.ErrFourLetterRefused) && !slices.Contains(a.info.Refused, w) {
		a.info.Refused = append(a.info.Refused, w)
	}
	if errors.Is(adminErr, words.ErrAdminUnavailable) {
		a.info.AdminErr = adminErr
	}
	switch {
	case via != "":
		a.info.setVia(w, via)
		return via, true
	case adminErr != nil && !errors.Is(adminErr, words.ErrAdminUnavailable):
		a.fail(w, adminErr)
	case adminErr != nil:
		// Refused, and no AdminServer: Refused and AdminErr say so.
	case w == "srvr":
		a.info.Err = wordErr
	default:
		a.fail(w, wordErr)
	}
	return "", false
}

// waited adds to err, when it is a deadline's, how long the ask waited:
// "context deadline exceeded" alone does not say whether the member was
// given a second or a minute.
func waited(err error, start time.Time) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w (no answer in %s)", err, time.Since(start).Round(100*time.Millisecond))
}

// parseWord parses a reply to w, recording a parse failure.
func parseWord[T any](a *memberAnswer, w, reply string, parse func(string) (T, error)) (T, bool) {
	v, err := parse(reply)
	if err != nil {
		a.fail(w, fmt.Errorf("zkwatch: %s from %s: %w", w, a.info.Addr, err))
		return v, false
	}
	return v, true
}

// fail records why w got no usable answer.
func (a *memberAnswer) fail(w string, err error) {
	if a.info.Failed == nil {
		a.info.Failed = map[string]error{}
	}
	a.info.Failed[w] = err
}

// missing says why a member's answers to the words asked are missing, in a form that
// is followed by the member's address: "wchc and wchp refused by", or
// "cons refused, and no AdminServer answered, by".
func (a *memberAnswer) missing(asked ...string) string {
	switch {
	case errors.Is(a.info.Err, words.ErrNotServing):
		return "not serving:"
	case a.info.Err != nil:
		return "no answer from"
	}
	for _, w := range asked {
		if a.info.Failed[w] != nil {
			return w + " failed at"
		}
	}
	if errors.Is(a.info.AdminErr, words.ErrAdminElsewhere) || errors.Is(a.info.AdminErr, words.ErrAdminUntied) {
		return strings.Join(asked, " and ") + " refused, and the AdminServer asked could not be proven to be the member's, by"
	}
	if a.info.AdminErr != nil && !errors.Is(a.info.AdminErr, words.ErrAdminOff) {
		return strings.Join(asked, " and ") + " refused, and no AdminServer answered, by"
	}
	return strings.Join(asked, " and ") + " refused by"
}
