package zkwatch

import (
	"context"
	"crypto/tls"
	"errors"
	"github.com/zklocks/zklocks/zkwatch/words"
	"maps"
	"slices"
	"sync"
	"time"
)

// defaultWordTimeout bounds each four-letter word an Enricher asks.
const defaultWordTimeout = 2 * time.Second

// Enricher asks every ensemble member for its four-letter words, at most once
// per interval: srvr for the member's status, cons for its connections, and
// wchc for its watches (wchp instead where wchc is refused: both dump the
// same table, and each can be expensive on a server with many watches).
// Where a member refuses a word, its AdminServer is asked the command that
// answers the same question (see AdminServer), paced and counted alike.
//
// A word a member refuses is remembered and not asked of that member again
// for the Enricher's life (a whitelist changes only with a server restart;
// a new Enricher asks afresh), except srvr, which is asked every time; a
// member without an AdminServer is asked for one again after a minute. A
// member that does not answer is asked again on the next interval. An
// Enricher is safe for concurrent use.
type Enricher struct {
	// TLS, when set before the first Poll, asks over TLS: the members'
	// secure client ports answer four-letter words only that way.
	TLS *tls.Config
	// Admin, when set before the first Poll, says where the members'
	// AdminServers are: a word a member refuses is asked of its
	// AdminServer instead. nil means the defaults (http, port 8080).
	Admin *words.AdminServer
	// Mode says whether the watch table is read (see WatchMode); set it
	// before the first Poll.
	Mode WatchMode
	// Budget is, in WatchesAuto, the most watches the servers may hold
	// (wchs) for their table to be read; 0 means DefaultWatchBudget.
	Budget int
	// Costs counts every word asked and paces cons and wchc by their
	// cost; nil makes one of the Enricher's own. Set before the first Poll.
	Costs *words.Costs
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
	kept    map[string]memberAnswer       // server → its last cons and watch table, reused until due again
	refused map[string]map[string]bool    // server → words it refused
	noAdmin map[string]words.MissingAdmin // server → why it had no AdminServer, and when
	last    Enrichment                    // the last completed ask's picture
	// lastTables names the members' watch tables the last picture's was
	// merged from: while every member's is kept, the merge is kept too.
	lastTables string
	askedAt    time.Time // when that ask started; zero before
	// consAgain makes the next ask read cons again however recently it
	// was read, as its cost allows (see LookAgain).
	consAgain bool
	// quiet is, by member and session, what its last cons said of the
	// session's traffic (see hearSilence).
	quiet map[string]map[int64]quietMark
	// clocks is, by member, what its answers proved of its monotonic
	// clock against ours (see tieClock); a member without one has none.
	clocks map[string]memberClock
	flight *ask // the ask under way, if any
}

// ask is one round of questions to every member, shared by the Polls that
// wait for it. It is abandoned (its context cancelled) when none waits.
type ask struct {
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed once result is set
	waiters int
	result  Enrichment
	// consEvery is the least time since a member's last cons for this
	// ask to read it again rather than keep it.
	consEvery time.Duration
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
		noAdmin:     map[string]words.MissingAdmin{},
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
	fresh := !e.askedAt.IsZero() && e.now().Sub(e.askedAt) < e.interval-e.interval/20
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

// wordEvery is the least time between two reads of a member's cons or
// watch table that the period alone paces. A caller polls on a ticker of
// the period, and each word's ask is dated when it began, after srvr: the
// next tick comes a little less than a period after it as often as a
// little more, and pacing by the whole period read each only every other
// period. Poll itself asks again once the period less a twentieth has
// passed, for the same reason.
func (e *Enricher) wordEvery() time.Duration { return e.interval - e.interval/4 }

// AskSoon makes the next Poll ask the members whatever the interval: srvr,
// and each other word its cost allows (cons and a watch table read for the
// same locks are kept as usual; a table read before the locks of interest
// grew is read again as soon as its cost allows).
func (e *Enricher) AskSoon() {
	e.mu.Lock()
	e.askedAt = time.Time{}
	e.mu.Unlock()
}

// LookAgain makes the next Poll ask the members as AskSoon does, and read
// every member's cons again however recently it was read (only a cons
// answer big enough to cost its member is still paced by that cost): a
// second look at sessions a complete answer no longer listed.
func (e *Enricher) LookAgain() {
	e.mu.Lock()
	e.askedAt, e.consAgain = time.Time{}, true
	e.mu.Unlock()
}

// start begins an ask; e.mu is held. The ask keeps ctx's values but not its
// cancellation, which belongs to the Polls that wait.
func (e *Enricher) start(ctx context.Context) *ask {
	actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	f := &ask{ctx: actx, cancel: cancel, done: make(chan struct{}), consEvery: e.wordEvery()}
	if e.consAgain {
		f.consEvery, e.consAgain = 0, false
	}
	e.flight = f
	if e.Costs == nil {
		e.Costs = words.NewCostsWithClock(e.now)
	}
	kept := maps.Clone(e.kept)
	refused := make(map[string]map[string]bool, len(e.refused))
	for server, refusedWords := range e.refused {
		refused[server] = maps.Clone(refusedWords)
	}
	// Taken when a member's watch table is about to be read, not at every
	// ask: over the budget or without the table, which is the rule on a
	// large cluster, naming every lock each period cost the idle UI a
	// quarter of its time.
	interest, focus := lazyInterest(e.Interest), lazyInterest(e.Focus)
	if e.Admin == nil {
		e.Admin = &words.AdminServer{}
	}
	noAdmin := map[string]error{}
	for server, missing := range e.noAdmin {
		if e.now().Sub(missing.At) < words.AdminRetry {
			noAdmin[server] = missing.Err
		}
	}
	go e.run(f, e.now(), refused, noAdmin, kept, interest, focus)
	return f
}

// lazyInterest is get's Interest, asked once, on the first call, and
// shared by the members of one ask: every read of a table starts after
// it, so that Covers names no lock found after its read began. A nil get
// gives the zero Interest.
func lazyInterest(get func() Interest) func() Interest {
	if get == nil {
		return func() Interest { return Interest{} }
	}
	return sync.OnceValue(get)
}

// run asks every member concurrently, then publishes the picture unless the
// ask was abandoned. Refusals are remembered either way.
func (e *Enricher) run(f *ask, started time.Time, refused map[string]map[string]bool, noAdmin map[string]error, kept map[string]memberAnswer, interest, focus func() Interest) {
	answers := make([]memberAnswer, len(e.servers))
	// Which counts are fresh is decided once, as the ask begins: decided
	// again as each member's turn comes, a count could go stale in between
	// and leave a member over the budget with neither its count nor a new one.
	overKnown, fresh := false, make(map[string]bool, len(e.servers))
	for _, server := range e.servers {
		fresh[server] = e.overBudgetFresh(kept[server])
		overKnown = overKnown || fresh[server]
	}
	var wg sync.WaitGroup
	for i, server := range e.servers {
		wg.Go(func() {
			answers[i] = e.askMember(f.ctx, server, refused[server], noAdmin[server], kept[server], f.consEvery, overKnown, fresh[server])
		})
	}
	wg.Wait()
	e.readTables(f.ctx, answers, refused, kept, interest, focus)
	tables := tableSources(answers)
	e.mu.Lock()
	e.hearSilence(answers)
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
		if err := a.info.AdminErr; errors.Is(err, words.ErrAdminUnavailable) && err != e.noAdmin[a.info.Addr].Err {
			e.noAdmin[a.info.Addr] = words.MissingAdmin{Err: err, At: e.now()}
		}
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
	info   ServerInfo
	conns  []words.Connection
	consOK bool      // cons answered (conns may still be empty)
	consAt time.Time // when that cons was asked for
	// consDone is when it came back; consReused marks an earlier ask's
	// answer kept while cons is not due.
	consDone   time.Time
	consReused bool
	// silent is, by session, how long at least the member had heard
	// nothing from it when it answered cons (see hearSilence).
	silent  map[int64]time.Duration
	heard   map[int64]time.Time
	consVia words.Via          // how cons was answered
	watches map[int64][]string // nil unless wchc or wchp answered
	// watchesZxid is the member's zxid (srvr) just before its watch table
	// was read, and watchesAt when; the table may be an earlier ask's.
	watchesZxid int64
	watchesAt   time.Time
	watchesWord string    // wchc or wchp
	watchesFor  string    // the one lock the table was kept to, if one
	watchesVia  words.Via // how the table was read
	// covers is the interest's Covers when the table was read, coversGen
	// its Gen.
	covers    func(string) bool
	coversGen uint64
	// overBudget is the watches the member holds (wchs), when more than
	// budget allows to read its table.
	overBudget, budget int
	// watchTotal is the watches the member holds as wchs last said (-1
	// when unknown), asked at watchTotalAt.
	watchTotal   int
	watchTotalAt time.Time
	// reached: the member answered srvr, and was asked the rest.
	reached bool
	// tableSkipped: the member's table was not read because another
	// member's cannot be (see readTables), which that member's note says.
	tableSkipped bool
}
