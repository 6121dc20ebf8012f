package model

import (
	"slices"
	"sort"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// A StoryPass keeps a followed lock's log entries only while they may
// still change what its story tells: once a node's spans have ended, and
// their endings can no longer be updated (syncEnds), they are folded
// there and then (foldedSpan, encoded: see story_spill.go) and the
// entries let go. What a pass holds then grows with the holds and waits
// folded, a few dozen bytes each, not with their entries; and with a
// Spill, only with the locks.

// foldedSpan is a finished hold or wait of a followed lock, its entries
// let go: the span, and what its entries said of it beyond the span
// (none, for most).
type foldedSpan struct {
	seq   int // of the entry that began it: its place among the lock's spans
	span  Span
	extra *spanExtra
}

// spanExtra is what a finished span's entries said of it: an operator's
// action that ended it, its holder's freezes, and what a transaction log
// said of its ending.
type spanExtra struct {
	audit  string
	frozen []StoryFrozen
	logEnd StoryLogEnd
}

// extraOf is what entries, a finished span's node's, say of sp beyond
// it; nil when nothing.
func extraOf(sp Span, entries []HistoryEntry) *spanExtra {
	var x spanExtra
	x.audit = auditOf(entries, sp.Node, sp.To)
	if sp.Hold {
		x.frozen = frozenIn(entries, sp, sp.To)
	}
	x.logEnd = logEndOf(entries, sp)
	if x.audit == "" && x.frozen == nil && x.logEnd.DeletedBy == "" && x.logEnd.SessionTimeout == 0 && x.logEnd.LastHeard.IsZero() {
		return nil
	}
	return &x
}

// hold tells f, a hold.
func (f *foldedSpan) hold() StoryHold {
	h := holdOf(f.span, nil, f.span.To)
	if x := f.extra; x != nil {
		h.Audit, h.Frozen, h.StoryLogEnd = x.audit, x.frozen, x.logEnd
	}
	return h
}

// wait tells f, a wait; granted when it ended with its node's hold (late:
// that hold first seen, not seen granted).
func (f *foldedSpan) wait(granted, late bool) StoryWait {
	w := waitOf(f.span, nil, f.span.To, granted, late)
	if x := f.extra; x != nil {
		w.Audit = x.audit
		if !granted {
			w.StoryLogEnd = x.logEnd
		}
	}
	return w
}

// seqConn is a holder's connection loss, by the place of its entry.
type seqConn struct {
	seq  int
	conn StoryConn
}

// add appends h to b's log.
func (b *storyBuilder) add(h HistoryEntry) {
	b.log = append(b.log, h)
	b.seqs = append(b.seqs, b.next)
	b.next++
}

// index is where the entry at place seq is in b's log, if it is there
// still.
func (b *storyBuilder) index(seq int) (int, bool) {
	i, ok := slices.BinarySearch(b.seqs, seq)
	return i, ok && b.log[i].Lock != ""
}

// fold tells node's spans in b's log and lets their entries go, when the
// ending at place seq, now final, is the node's last entry and left none
// of its spans open. Spans begun before watching began are dated by it,
// so nothing is folded before it is known.
func (p *StoryPass) fold(b *storyBuilder, node string, seq int) {
	if p.noFold || p.s.FirstSync.IsZero() {
		return
	}
	// The node's entries are found in the log itself: it holds the lock's
	// open entries only, and a map of them by node, kept up with every
	// entry, cost more than the pass's folding.
	entries, at := p.foldEntries[:0], p.foldAt[:0]
	defer func() {
		// Kept for the next node, its entries let go.
		clear(entries)
		p.foldEntries, p.foldAt = entries[:0], at[:0]
	}()
	for i := range b.log {
		if h := &b.log[i]; h.Lock != "" && h.Node == node {
			entries, at = append(entries, *h), append(at, i)
		}
	}
	if len(at) == 0 || b.seqs[at[len(at)-1]] != seq {
		return
	}
	lg := logSpans(entries, b.lock)
	if len(lg.open) > 0 {
		return
	}
	for k, sp := range lg.spans {
		if sp.From.IsZero() {
			sp.From, sp.Before = p.s.FirstSync, true
		}
		p.foldSpan(b, foldedSpan{seq: b.seqs[at[lg.made[k]]], span: sp, extra: extraOf(sp, entries)})
	}
	for _, w := range lg.waits {
		p.foldTime(b, recWait, w)
	}
	for _, h := range lg.holds {
		p.foldTime(b, recHold, h)
	}
	for k, h := range entries {
		if h.Change == Disconnected {
			b.foldedConns = append(b.foldedConns, seqConn{b.seqs[at[k]], disconnectedConn(h)})
		}
	}
	for _, i := range at {
		b.log[i] = HistoryEntry{}
	}
	b.dead += len(at)
	// Let go at once: a pass over thousands of locks holds each one's
	// dead entries, and the arrays they grew, until then.
	if b.dead*2 >= len(b.log) {
		b.compact()
	}
}

// keptLog is the room a lock's emptied log keeps: its open entries
// rise and fall by a few with each hold (a join, a grant, a release, and
// the endings not yet final), and room let go below that was grown again
// at once, which was most of what a pass allocated.
const keptLog = 8

// compact lets go the entries of b's log that were folded, moving those
// left down within the same arrays: a lock's log grows and shrinks
// around its few open entries all through a pass, and new arrays each
// time would be most of what the pass allocates. Arrays grown far past
// what is left are let go too: held for each of thousands of locks, they
// were most of what a pass held.
func (b *storyBuilder) compact() {
	n := 0
	for i, h := range b.log {
		if h.Lock != "" {
			b.log[n], b.seqs[n] = h, b.seqs[i]
			n++
		}
	}
	clear(b.log[n:])
	b.log, b.seqs, b.dead = b.log[:n], b.seqs[:n], 0
	// Let go only when four times what is left, and kept at twice that:
	// a log shrunk to fit grew again with its next hold.
	if c := max(2*n, keptLog); cap(b.log) > max(4*n, keptLog) {
		b.log = append(make([]HistoryEntry, 0, c), b.log...)
		b.seqs = append(make([]int, 0, c), b.seqs...)
	}
}

// disconnectedConn tells a holder's connection loss.
func disconnectedConn(h HistoryEntry) StoryConn {
	return StoryConn{At: h.At, What: "holder's session connected to no member (its client gone or cut off)",
		Session: lockcore.SessionHex(h.Session), Node: h.Node}
}

// conns are b's holders' connection losses, in the order they were
// logged.
func (b *storyBuilder) conns() []StoryConn {
	all := append([]seqConn(nil), b.foldedConns...)
	for i, h := range b.log {
		if h.Lock != "" && h.Change == Disconnected {
			all = append(all, seqConn{b.seqs[i], disconnectedConn(h)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	out := make([]StoryConn, len(all))
	for i, c := range all {
		out[i] = c.conn
	}
	return out
}

// spansOf is b's spans over [from, to] in the order they began, those
// folded told already (told), and the lengths of the waits and holds
// seen whole that ended in it: State.Timeline over its log.
func (p *StoryPass) spansOf(b *storyBuilder, from, to time.Time) ([]Span, []*foldedSpan, []time.Duration, []time.Duration) {
	lg := logSpans(b.log, b.lock)
	live := p.s.spansNow(b.lock, lg.spans, lg.open)
	folded, foldedWaits, foldedHolds := p.unfold(b)
	type placed struct {
		seq  int
		span Span
		f    *foldedSpan
	}
	all := make([]placed, 0, len(live)+len(folded))
	for i, sp := range live {
		seq := b.next // the present contenders the log has no span of
		if i < len(lg.made) {
			seq = b.seqs[lg.made[i]]
		}
		all = append(all, placed{seq, sp, nil})
	}
	for i := range folded {
		all = append(all, placed{folded[i].seq, folded[i].span, &folded[i]})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	var spans []Span
	var told []*foldedSpan
	for _, a := range all {
		if spanIn(a.span, from, to) {
			spans, told = append(spans, a.span), append(told, a.f)
		}
	}
	waits := timesIn(append(append([]timedSpan(nil), lg.waits...), foldedWaits...), from, to)
	holds := timesIn(append(append([]timedSpan(nil), lg.holds...), foldedHolds...), from, to)
	return spans, told, waits, holds
}
