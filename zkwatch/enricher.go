package zkwatch

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// defaultWordTimeout bounds each four-letter word an Enricher asks.
const defaultWordTimeout = 2 * time.Second

// Enricher asks every ensemble member for its four-letter words, at most once
// per interval: srvr for the member's status, cons for its connections, and
// wchc for its watches (wchp instead where wchc is refused: both dump the
// same table, and each can be expensive on a server with many watches).
//
// A word a member refuses is remembered and not asked of that member again
// for the Enricher's life (a whitelist changes only with a server restart;
// a new Enricher asks afresh), except srvr, which is asked every time. A member that does not answer is
// asked again on the next interval. An Enricher is safe for concurrent use.
type Enricher struct {
	// TLS, when set before the first Poll, asks over TLS: the members'
	// secure client ports answer four-letter words only that way.
	TLS *tls.Config
	// Mode says whether the watch table is read (see WatchMode); set it
	// before the first Poll.
	Mode WatchMode
	// Budget is, in WatchesAuto, the most watches the servers may hold
	// (wchs) for their table to be read; 0 means DefaultWatchBudget.
	Budget int
	// Costs counts every word asked and paces cons and wchc by their
	// cost; nil makes one of the Enricher's own. Set before the first Poll.
	Costs *Costs
	// Interest, if not nil, says which sessions and paths of the watch
	// table to keep; the rest is dropped as it is read.
	Interest func() Interest
	// Focus, if not nil, gives the interest in the lock the operator looks
	// at: over the budget, the table is still read for that lock alone,
	// paced by its cost.
	Focus func() Interest
	// Missing names the ensemble members that cannot be asked, each with
	// why (see Conn.Members): without them no watch table or client list
	// is complete.
	Missing []string

	servers     []string
	interval    time.Duration
	wordTimeout time.Duration
	now         func() time.Time

	mu      sync.Mutex
	kept    map[string]memberAnswer    // server → its last cons and watch table, reused until due again
	refused map[string]map[string]bool // server → words it refused
	last    Enrichment                 // the last completed ask's picture
	// lastTables names the members' watch tables the last picture's was
	// merged from: while every member's is kept, the merge is kept too.
	lastTables string
	askedAt    time.Time // when that ask started; zero before
	flight     *ask      // the ask under way, if any
}

// ask is one round of questions to every member, shared by the Polls that
// wait for it. It is abandoned (its context cancelled) when none waits.
type ask struct {
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed once result is set
	waiters int
	result  Enrichment
}

// NewEnricher returns an Enricher for the members at servers (host:port,
// every member of the ensemble) that asks them at most once per interval;
// an interval of zero or less asks on every Poll.
func NewEnricher(servers []string, interval time.Duration) *Enricher {
	return &Enricher{
		servers:     slices.Clone(servers),
		interval:    interval,
		wordTimeout: defaultWordTimeout,
		now:         time.Now,
		refused:     map[string]map[string]bool{},
		kept:        map[string]memberAnswer{},
	}
}

// Poll returns the current picture. It asks the members again only if
// interval has passed since the last ask started; otherwise, or when ctx
// is already done, it returns the last picture (the zero Enrichment before
// the first ask completes). Concurrent Polls share one ask.
//
// Poll never blocks longer than ctx: when ctx ends first, it returns the
// last picture, and an ask that no Poll waits for any more is abandoned,
// so the next Poll asks again. Each word has its own 2-second timeout, so an
// ask ends even under a context without deadline.
//
// The Enrichment returned may be shared with other callers: do not modify
// it. It describes the servers when they answered and is stale thereafter.
func (e *Enricher) Poll(ctx context.Context) Enrichment {
	e.mu.Lock()
	fresh := !e.askedAt.IsZero() && e.now().Sub(e.askedAt) < e.interval
	if ctx.Err() != nil || (e.flight == nil && fresh) {
		defer e.mu.Unlock()
		return e.last
	}
	f := e.flight
	if f == nil {
		f = e.start(ctx)
	}
	f.waiters++
	e.mu.Unlock()

	select {
	case <-f.done:
		return f.result
	case <-ctx.Done():
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if f.waiters--; f.waiters == 0 {
		f.cancel()
		if e.flight == f {
			e.flight = nil
		}
	}
	return e.last
}

// start begins an ask; e.mu is held. The ask keeps ctx's values but not its
// cancellation, which belongs to the Polls that wait.
func (e *Enricher) start(ctx context.Context) *ask {
	actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	f := &ask{ctx: actx, cancel: cancel, done: make(chan struct{})}
	e.flight = f
	if e.Costs == nil {
		e.Costs = NewCosts()
		e.Costs.now = e.now
	}
	kept := maps.Clone(e.kept)
	refused := make(map[string]map[string]bool, len(e.refused))
	for server, words := range e.refused {
		refused[server] = maps.Clone(words)
	}
	var interest, focus Interest
	if e.Interest != nil {
		interest = e.Interest()
	}
	if e.Focus != nil {
		focus = e.Focus()
	}
	go e.run(f, e.now(), refused, kept, interest, focus)
	return f
}

// run asks every member concurrently, then publishes the picture unless the
// ask was abandoned. Refusals are remembered either way.
func (e *Enricher) run(f *ask, started time.Time, refused map[string]map[string]bool, kept map[string]memberAnswer, interest, focus Interest) {
	answers := make([]memberAnswer, len(e.servers))
	var wg sync.WaitGroup
	for i, server := range e.servers {
		wg.Go(func() { answers[i] = e.askMember(f.ctx, server, refused[server], kept[server], interest, focus) })
	}
	wg.Wait()
	tables := tableSources(answers)
	e.mu.Lock()
	reuse := e.last.Watches != nil && tables == e.lastTables
	previous := e.last
	e.mu.Unlock()
	var result Enrichment
	if reuse {
		result = mergeKeepingTable(answers, e.now(), previous)
	} else {
		result = merge(answers, e.now())
	}
	if len(e.Missing) > 0 {
		result = result.withMissing(e.Missing)
	}
	result.Cost = e.Costs.Snapshot()

	e.mu.Lock()
	defer e.mu.Unlock()
	for _, a := range answers {
		if a.consOK || a.watches != nil {
			e.kept[a.info.Addr] = a
		}
	}
	for _, a := range answers {
		for _, w := range a.info.Refused {
			if w == "srvr" {
				continue
			}
			if e.refused[a.info.Addr] == nil {
				e.refused[a.info.Addr] = map[string]bool{}
			}
			e.refused[a.info.Addr][w] = true
		}
	}
	if f.ctx.Err() == nil {
		e.last, e.askedAt, e.lastTables = result, started, tables
	}
	if e.flight == f {
		e.flight = nil
	}
	f.result = result
	f.cancel()
	close(f.done)
}

// memberAnswer is what one member said in one ask.
type memberAnswer struct {
	info    ServerInfo
	conns   []Connection
	consOK  bool               // cons answered (conns may still be empty)
	consAt  time.Time          // when that cons was asked for
	watches map[int64][]string // nil unless wchc or wchp answered
	// watchesZxid is the member's zxid (srvr) just before its watch table
	// was read, and watchesAt when; the table may be an earlier ask's.
	watchesZxid int64
	watchesAt   time.Time
	watchesWord string // wchc or wchp
	watchesFor  string // the one lock the table was kept to, if one
	// covers is the interest's Covers when the table was read, coversGen
	// its Gen.
	covers    func(string) bool
	coversGen uint64
	// overBudget is the watches the member holds (wchs), when more than
	// budget allows to read its table.
	overBudget, budget int
}

// askMember asks server for srvr, then, if it answered or refused only
// srvr, for the other words it has not refused before: cons and the watch
// table when their cost allows, else the last answers are kept.
func (e *Enricher) askMember(ctx context.Context, server string, refused map[string]bool, kept memberAnswer, interest, focus Interest) memberAnswer {
	a := memberAnswer{info: ServerInfo{Addr: server}}
	reply, ok := e.word(ctx, &a, refused, "srvr")
	if !ok && !slices.Contains(a.info.Refused, "srvr") {
		return a // unreachable or not serving: the rest would fail too
	}
	if ok {
		st, err := ParseSrvr(reply)
		if err != nil {
			a.info.Err = fmt.Errorf("zkwatch: srvr from %s: %w", server, err)
			return a
		}
		st.Addr = server
		a.info.Status = st
	}
	e.askCons(ctx, &a, refused, kept)
	e.askWatches(ctx, &a, refused, kept, interest, focus)
	return a
}

// askCons reads the member's connections into a, or keeps the last ones
// while cons is not yet due again.
func (e *Enricher) askCons(ctx context.Context, a *memberAnswer, refused map[string]bool, kept memberAnswer) {
	if kept.consOK && !e.Costs.Due(a.info.Addr, "cons", e.interval) {
		a.conns, a.consOK, a.consAt = kept.conns, true, kept.consAt
		return
	}
	at := e.now()
	if reply, ok := e.word(ctx, a, refused, "cons"); ok {
		a.conns, a.consOK = parseWord(a, "cons", reply, ParseCons)
		a.consAt = at
	}
}

// askWatches reads the member's watch table into a, as Mode and Budget
// allow: wchc, or wchp where wchc is refused, streamed and kept to what
// interest names. A table read less than its cost allows ago is reused.
func (e *Enricher) askWatches(ctx context.Context, a *memberAnswer, refused map[string]bool, kept memberAnswer, interest, focus Interest) {
	if e.Mode == WatchesRecipe {
		return
	}
	if e.Mode == WatchesAuto {
		if reply, ok := e.word(ctx, a, refused, "wchs"); ok {
			if total, err := ParseWchs(reply); err == nil && total > e.budget() {
				if focus.Lock == "" {
					a.overBudget, a.budget = total, e.budget()
					return
				}
				// Over the budget for every lock, but not for the one
				// the operator looks at: paced like any table read.
				interest = focus
			}
		}
	}
	if kept.watches != nil && !e.Costs.Due(a.info.Addr, kept.watchesWord, e.interval) {
		a.watches, a.watchesZxid, a.watchesAt, a.watchesWord, a.covers, a.watchesFor = kept.watches, kept.watchesZxid, kept.watchesAt, kept.watchesWord, kept.covers, kept.watchesFor
		a.coversGen = kept.coversGen
		return
	}
	zxid, at := a.info.Status.Zxid, e.now()
	for _, w := range []string{"wchc", "wchp"} {
		if table, ok := e.streamWatches(ctx, a, refused, w, interest); ok {
			a.watches, a.watchesZxid, a.watchesAt, a.watchesWord, a.covers, a.watchesFor = table, zxid, at, w, interest.Covers, interest.Lock
			a.coversGen = interest.Gen
			return
		}
		if !slices.Contains(a.info.Refused, w) {
			return // failed rather than refused: wchp would fail alike
		}
	}
}

// streamWatches asks for wchc or wchp and parses it as it comes.
func (e *Enricher) streamWatches(ctx context.Context, a *memberAnswer, refused map[string]bool, w string, interest Interest) (map[int64][]string, bool) {
	if refused[w] {
		a.info.Refused = append(a.info.Refused, w)
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, e.tableTimeout())
	defer cancel()
	var table map[int64][]string
	_, err := FourLetterStream(ctx, a.info.Addr, w, e.TLS, e.Costs, func(r *bufio.Reader) error {
		var err error
		table, err = ParseWatchStream(w, r, interest)
		return err
	})
	switch {
	case err == nil:
		return table, true
	case errors.Is(err, ErrFourLetterRefused):
		a.info.Refused = append(a.info.Refused, w)
	default:
		a.fail(w, err)
	}
	return nil, false
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

// word asks a.info.Addr for w, with its own timeout, unless the member
// refused w before. A refusal is added to a.info.Refused; any other failure
// of srvr is a.info.Err, and of another word goes to a.info.Failed.
func (e *Enricher) word(ctx context.Context, a *memberAnswer, refused map[string]bool, w string) (string, bool) {
	if w != "srvr" && refused[w] {
		a.info.Refused = append(a.info.Refused, w)
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, e.wordTimeout)
	defer cancel()
	start := time.Now()
	reply, err := FourLetterTLS(ctx, a.info.Addr, w, e.TLS)
	if err == nil || errors.Is(err, ErrFourLetterRefused) {
		e.Costs.record(a.info.Addr, w, time.Since(start), int64(len(reply)))
	}
	switch {
	case err == nil:
		return reply, true
	case errors.Is(err, ErrFourLetterRefused):
		a.info.Refused = append(a.info.Refused, w)
	case w == "srvr":
		a.info.Err = err
	default:
		a.fail(w, err)
	}
	return "", false
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

// missing says why a member's answer to words is missing, in a form that
// is followed by the member's address: "wchc and wchp refused by".
func (a *memberAnswer) missing(words ...string) string {
	switch {
	case errors.Is(a.info.Err, ErrNotServing):
		return "not serving:"
	case a.info.Err != nil:
		return "no answer from"
	}
	for _, w := range words {
		if a.info.Failed[w] != nil {
			return w + " failed at"
		}
	}
	return strings.Join(words, " and ") + " refused by"
}
