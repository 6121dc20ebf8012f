package words

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// costWindow is how far back a Costs reports: figures are per minute.
const costWindow = time.Minute

// MaxWordShare is the most of a member's time that zklocks lets each of
// its periodic four-letter words take: a word that took d is asked again
// no sooner than d / MaxWordShare later. With the three words that can be
// expensive (cons, wchc, dump) each bounded so, zklocks stays under 1 %
// of any member's time.
const MaxWordShare = 1.0 / 300

// Costs counts what zklocks' four-letter words cost each member: how many
// were asked, the bytes of their answers and the time from asking to the
// last byte (an upper bound of the member's own time), over the last
// minute. It also tells when an expensive word may be asked again. A Costs
// is safe for concurrent use.
type Costs struct {
	now func() time.Time

	mu   sync.Mutex
	asks []wordAsk              // within costWindow, oldest first
	last map[memberWord]wordAsk // each word's latest ask, kept past the window
	// turns holds, per member, the token of the ask under way (see turn).
	turns map[string]chan struct{}
}

type memberWord struct{ member, word string }

// wordAsk is one four-letter word asked of one member.
type wordAsk struct {
	memberWord
	at    time.Time
	bytes int64
	took  time.Duration
	via   Via
}

// NewCosts returns an empty Costs.
func NewCosts() *Costs { return NewCostsWithClock(time.Now) }

// NewCostsWithClock returns an empty Costs that reads the time from now,
// for a caller that keeps a clock of its own.
func NewCostsWithClock(now func() time.Time) *Costs {
	return &Costs{now: now, last: map[memberWord]wordAsk{}}
}

// turnWait bounds how long an ask waits for the one under way on the
// same member: a watch table read on a member holding a million watches
// can take seconds, and a period's srvr must not fail behind it.
const turnWait = 2 * time.Second

// turn waits until no other ask counted here is under way on member
// (at most turnWait, or until ctx ends) and returns what ends this ask's
// turn. Two asks of one member at once, as a period's srvr beside a dump,
// each took the time the member gave the other, and were each counted
// for it: the member's share was counted twice over, and the member had
// both to answer at once.
func (c *Costs) turn(ctx context.Context, member string) (done func()) {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	if c.turns == nil {
		c.turns = map[string]chan struct{}{}
	}
	token := c.turns[member]
	if token == nil {
		token = make(chan struct{}, 1)
		c.turns[member] = token
	}
	c.mu.Unlock()
	wait := time.NewTimer(turnWaitWithin(ctx))
	defer wait.Stop()
	select {
	case token <- struct{}{}:
		return func() { <-token }
	case <-wait.C:
	case <-ctx.Done():
	}
	// Asked alongside: the ask under way is slow, and this one still
	// needs its answer (ctx's end fails it at once).
	return func() {}
}

// turnWaitWithin is how long an ask under ctx may wait for its turn:
// turnWait, and at most half of the time ctx leaves, so that the wait
// never spends the time the ask itself was given (a one-shot dump of
// the leader, given 2 s in all, failed behind a discovery dump).
func turnWaitWithin(ctx context.Context) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return turnWait
	}
	return max(min(turnWait, time.Until(deadline)/2), 0)
}

// record adds one four-letter word that ended now and took took.
func (c *Costs) record(member, word string, took time.Duration, bytes int64) {
	c.Record(member, word, ViaWord, took, bytes)
}

// Record adds one ask that ended now and took took, made the way via
// says. An AdminServer command is recorded under the word it stands for,
// so that a word is paced by its cost whichever way it was asked.
func (c *Costs) Record(member, word string, via Via, took time.Duration, bytes int64) {
	if c == nil {
		return
	}
	a := wordAsk{memberWord: memberWord{member, word}, at: c.now().Add(-took), bytes: bytes, took: took, via: via}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asks = append(c.asks, a)
	c.last[a.memberWord] = a
	c.trim()
}

// trim drops asks older than the window; c.mu is held.
func (c *Costs) trim() {
	cut := c.now().Add(-costWindow)
	i := 0
	for i < len(c.asks) && c.asks[i].at.Before(cut) {
		i++
	}
	c.asks = slices.Delete(c.asks, 0, i)
}

// smallAnswer is the size under which an answer is taken to have cost its
// member nothing worth pacing: building a few kilobytes is quick, and the
// time such an ask took is this machine's and the network's, which on a
// loaded client would otherwise space small asks minutes apart.
const smallAnswer = 64 << 10

// Next returns the earliest time word may be asked of member again: its
// last ask's start plus the larger of every and the time it took divided
// by MaxWordShare (every alone after an answer under 64 KiB). It is the
// zero time for a word never asked.
func (c *Costs) Next(member, word string, every time.Duration) time.Time {
	if c == nil {
		return time.Time{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.last[memberWord{member, word}]
	if !ok {
		return time.Time{}
	}
	return a.at.Add(max(every, a.gap()))
}

// gap is the least time after this ask that its cost allows the next.
func (a wordAsk) gap() time.Duration {
	if a.bytes < smallAnswer {
		return 0
	}
	return time.Duration(float64(a.took) / MaxWordShare)
}

// Spent is the time member's answers took over the last minute.
func (c *Costs) Spent(member string) time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trim()
	var t time.Duration
	for _, a := range c.asks {
		if a.member == member {
			t += a.took
		}
	}
	return t
}

// Due reports whether word may be asked of member now (see Next).
func (c *Costs) Due(member, word string, every time.Duration) bool {
	return !c.now().Before(c.Next(member, word, every))
}

// WordCost is what one word cost one member over the last minute.
type WordCost struct {
	Word  string
	Asks  int
	Bytes int64
	Time  time.Duration
	// Every is the least gap between two asks its last cost allows.
	Every time.Duration
	// Via is how the last ask went: by four-letter word, or by the
	// AdminServer command that stands for it.
	Via Via
}

// MemberCost is what zklocks' four-letter words cost one member over the
// last minute.
type MemberCost struct {
	Member string
	Words  []WordCost // by word
	Bytes  int64
	Time   time.Duration
}

// Share is the part of the member's last minute its answers took.
func (m MemberCost) Share() float64 { return float64(m.Time) / float64(costWindow) }

// Snapshot returns every member's cost over the last minute, by member.
func (c *Costs) Snapshot() []MemberCost {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trim()
	byMember := map[string]map[string]*WordCost{}
	for k, a := range c.last {
		if byMember[k.member] == nil {
			byMember[k.member] = map[string]*WordCost{}
		}
		byMember[k.member][k.word] = &WordCost{Word: k.word, Every: a.gap(), Via: a.via}
	}
	for _, a := range c.asks {
		w := byMember[a.member][a.word]
		w.Asks++
		w.Bytes += a.bytes
		w.Time += a.took
	}
	var out []MemberCost
	for member, words := range byMember {
		m := MemberCost{Member: member}
		for _, w := range words {
			m.Words = append(m.Words, *w)
			m.Bytes += w.Bytes
			m.Time += w.Time
		}
		slices.SortFunc(m.Words, func(a, b WordCost) int { return strings.Compare(a.Word, b.Word) })
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b MemberCost) int { return strings.Compare(a.Member, b.Member) })
	return out
}
