package model

import (
	"container/heap"
	"sort"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// StoryPass tells the stories of the locks it follows in one pass over a
// recording's events: the State is applied once, and each lock's story
// is built as its events arrive, so that no event is kept once applied.
// What it holds is each followed lock's holds and waits folded as they
// ended (encoded, and set down in its Spill when it has one), the log
// entries of those still open (or whose endings an operator's action or
// the members' answer may still change) and its anomalies: it grows
// with the locks and their holds and waits (with a Spill, with the locks
// only), not with the recording's length. TellStory is a StoryPass that
// follows one lock.
type StoryPass struct {
	s       *State
	follow  func(lock string) bool
	from    time.Time
	last    time.Time
	mark    LockMark
	locks   map[string]*storyBuilder
	ignored map[string]bool // paths seen and not followed
	aging   agingHeap
	conns   []StoryConn // the recording's own connection losses
	// endings are the latest releases and leaves logged, oldest first:
	// the only entries whose endings the event log may still learn.
	endings []endingRef
	to      time.Time
	done    bool
	// keep is how many logged endings syncEnds may still update: older
	// ones are final, and their spans folded (unless noFold).
	keep   int
	noFold bool
	// spill, when set, is where the locks' folded chunks are set down,
	// spillAt its length; spillWriteErr its first failed write,
	// spillErr its first failed read.
	spill         Spill
	chunk         int // foldChunk, but in tests
	spillAt       int64
	spillWriteErr error
	spillErr      error
	// spillMu guards the spill's reads and spillErr while locks are told
	// side by side.
	spillMu sync.Mutex
	// foldEntries and foldAt are fold's scratch: a node's entries and
	// their indexes in its lock's log.
	foldEntries []HistoryEntry
	foldAt      []int
}

// storyBuilder is one lock's story as the events arrive.
type storyBuilder struct {
	lock   string
	known  bool
	recipe lockcore.Recipe
	// log is its entries not yet folded, seqs their places among all
	// it was given (rising).
	log  []HistoryEntry
	seqs []int
	next int
	dead int // entries of log folded, not yet let go
	// folds are its finished holds and waits and their lengths, encoded;
	// foldedConns its holders' connection losses among their entries.
	folds       folds
	foldedConns []seqConn
	anomalies   []StoryAnomaly
	open        map[anomalyKey]int // anomaly → its index in anomalies, while it lasts
	shown       *lockcore.Lock
	// due is the next moment its time-dependent findings (long-held)
	// are looked at again; at is its place in the pass's aging heap
	// (-1: none due).
	due time.Time
	at  int
}

// NewStoryPass starts a pass that follows the locks follow accepts (nil:
// every lock), over a stretch from from (zero: the first event's time).
func NewStoryPass(follow func(lock string) bool, from time.Time) *StoryPass {
	if follow == nil {
		follow = func(string) bool { return true }
	}
	return &StoryPass{s: NewState(), follow: follow, from: from, locks: map[string]*storyBuilder{}, ignored: map[string]bool{},
		keep: 2 * maxOpenEnds, chunk: foldChunk}
}

// builder is lock's builder, made when it is first met; nil when lock
// is not followed.
func (p *StoryPass) builder(lock string) *storyBuilder {
	if b, ok := p.locks[lock]; ok {
		return b
	}
	if p.ignored[lock] {
		return nil
	}
	if !p.follow(lock) {
		p.ignored[lock] = true
		return nil
	}
	b := &storyBuilder{lock: lock, open: map[anomalyKey]int{}, at: -1}
	p.locks[lock] = b
	return b
}

// Apply takes in the next event of the recording, in order.
func (p *StoryPass) Apply(ev zkwatch.Event) {
	if ev.At.After(p.last) {
		p.age(ev.At)
		p.last = ev.At
	}
	if p.from.IsZero() && !ev.At.IsZero() {
		p.from = ev.At
	}
	s := p.s
	before := s.Logged
	s.Apply(ev)
	added := min(s.Logged-before, len(s.History))
	for _, h := range s.History[len(s.History)-added:] {
		if b := p.builder(h.Lock); b != nil {
			if h.Change == Released || h.Change == Left {
				p.noteEnding(b, h)
			}
			b.add(h)
		}
	}
	switch ev.Kind {
	case zkwatch.EventAction, zkwatch.EventServers:
		// An operator's action, or the members' answer after a node
		// went, may say how an entry already logged ended.
		p.syncEnds()
	case zkwatch.EventConn:
		if what := connLoss(ev.Conn.Phase); what != "" {
			p.conns = append(p.conns, StoryConn{At: ev.At, What: what})
		}
	}
	paths, next, ok := s.LockChanges(p.mark)
	p.mark = next
	if !ok {
		// Any lock may have changed: look at every one followed and
		// every one there.
		for path := range s.Locks {
			p.builder(path)
		}
		for _, b := range p.locks {
			p.track(b, ev.At)
		}
		return
	}
	for _, path := range paths {
		if b := p.builder(path); b != nil {
			p.track(b, ev.At)
		}
	}
}

// track notes what the state now shows of b's lock, if it changed: its
// recipe and its anomalies (those a reading finds, those its sessions'
// links call for, and those time alone brings), as a replay shows them.
func (p *StoryPass) track(b *storyBuilder, at time.Time) {
	l := p.s.Locks[b.lock]
	if l == b.shown {
		return
	}
	b.shown = l
	var now []lockcore.Anomaly
	if l != nil {
		b.known = true
		if l.Recipe != lockcore.RecipeEmpty || b.recipe == "" {
			// A lock between holders reads empty: its recipe is what its
			// contenders said.
			b.recipe = l.Recipe
		}
		now = l.Anomalies
		// A new reading is looked at again from now on.
		p.aging.set(b, at)
	} else {
		p.aging.drop(b)
	}
	b.anomalies = trackAnomalies(b.anomalies, b.open, now, at)
}

// syncEnds copies onto the followed locks' logs how their entries ended
// where the event log has learnt it since (an operator's action, a
// members' answer): the endings still open are among its latest entries.
func (p *StoryPass) syncEnds() {
	history := p.s.History
	// The endings still open, each key at its latest place: kept as a
	// list only, since the map is wanted here alone, and an action or an
	// answer is rare beside the endings taken.
	logged := make(map[endingKey]int, len(p.endings))
	for _, e := range p.endings {
		logged[endingKey{e.b, e.key}] = e.seq
	}
	for i := len(history) - 1; i >= 0 && i >= len(history)-2*maxOpenEnds; i-- {
		h := history[i]
		if h.Change != Released && h.Change != Left {
			continue
		}
		b := p.locks[h.Lock]
		if b == nil {
			continue
		}
		q, ok := logged[endingKey{b, keyOfEntry(h)}]
		if !ok {
			continue
		}
		if j, ok := b.index(q); ok && (b.log[j].EndedBy != h.EndedBy || b.log[j].Action != h.Action) {
			b.log[j].EndedBy, b.log[j].Action = h.EndedBy, h.Action
		}
	}
}

// endingRef is an entry of a builder's log that syncEnds may update.
type endingRef struct {
	b   *storyBuilder
	key entryKey
	seq int
}

// endingKey is an ending of a builder's log, whatever its place.
type endingKey struct {
	b   *storyBuilder
	key entryKey
}

// noteEnding keys h, about to be b's next entry, for syncEnds; a release
// or leave no longer among the event log's latest 2×maxOpenEnds entries
// cannot be updated, and is forgotten, so that the keys held do not grow
// with the recording; its node's spans, if it ended them, are folded.
func (p *StoryPass) noteEnding(b *storyBuilder, h HistoryEntry) {
	p.endings = append(p.endings, endingRef{b, keyOfEntry(h), b.next})
	if len(p.endings) < 2*p.keep {
		return
	}
	drop := len(p.endings) - p.keep
	for _, e := range p.endings[:drop] {
		p.fold(e.b, e.key.node, e.seq)
	}
	// Moved down within the same array: a new one each time was most of
	// what taking an ending allocated.
	n := copy(p.endings, p.endings[drop:])
	clear(p.endings[n:])
	p.endings = p.endings[:n]
}

// maxAgeSteps bounds the moments between two events at which a lock's
// findings are looked at again: each is a holder crossing the long-held
// threshold.
const maxAgeSteps = 64

// age moves the followed locks' time-dependent findings (long-held) from
// the last event's time to until, noting each moment they change, as a
// replay's cursor would show them (State.AgeTo, for the followed locks
// that are due only: a pass goes over every event of a recording of any
// number of locks). A stale picture is left as it is.
func (p *StoryPass) age(until time.Time) {
	if p.last.IsZero() || p.s.Stale() {
		return
	}
	var again []*storyBuilder
	for len(p.aging) > 0 && !p.aging[0].due.After(until) {
		b := heap.Pop(&p.aging).(*storyBuilder)
		t := b.due
		if t.Before(p.last) {
			t = p.last
		}
		l := p.s.Locks[b.lock]
		due, ok := time.Time{}, false
		for i := 0; l != nil && !t.After(until) && i < maxAgeSteps; i++ {
			if n := l.At(t); n != l {
				p.s.Locks[b.lock], l = n, n
				b.shown = n
				b.anomalies = trackAnomalies(b.anomalies, b.open, n.Anomalies, t)
			}
			next, steady := l.LongHeldSteadyUntil(t)
			if !steady {
				ok = false
				break
			}
			// The findings change just after the span ends.
			t, due, ok = next.Add(time.Nanosecond), next.Add(time.Nanosecond), true
		}
		if ok {
			if due.Before(until) {
				// Past its steps: looked at again from the next event on.
				due = until
			}
			b.due = due
			again = append(again, b)
		}
	}
	for _, b := range again {
		heap.Push(&p.aging, b)
	}
}

// Finish ends the pass at to (zero: the last event's time), bringing the
// findings there. Stories and Story tell it afterwards; Apply must not
// be called again.
func (p *StoryPass) Finish(to time.Time) {
	if p.done {
		return
	}
	if to.IsZero() {
		to = p.last
	}
	p.age(to)
	p.to, p.done = to, true
}

// Locks lists the followed locks the recording held, in path order.
func (p *StoryPass) Locks() []string {
	var out []string
	for lock, b := range p.locks {
		if b.known {
			out = append(out, lock)
		}
	}
	sort.Strings(out)
	return out
}

// Story tells lock's story over the stretch the pass went over; Known is
// false when the recording did not hold it (or it was not followed).
// Finish must have been called. Told, the lock's log is let go when
// release is true: a caller that tells each lock once keeps only the
// story it is writing.
func (p *StoryPass) Story(lock string, release bool) Story {
	b := p.locks[lock]
	if b == nil {
		b = &storyBuilder{lock: lock}
	}
	st := p.tell(b)
	if release {
		b.log, b.seqs, b.anomalies, b.open = nil, nil, nil, nil
		b.folds, b.foldedConns = folds{}, nil
	}
	return st
}

// tell is b's story over [p.from, p.to].
func (p *StoryPass) tell(b *storyBuilder) Story {
	from, to, s := p.from, p.to, p.s
	// Empty lists, not none: a script reads "anomalies": [] as "none seen".
	st := Story{Lock: b.lock, Recipe: b.recipe, Known: b.known, From: from, To: to, WatchingFrom: s.FirstSync,
		Connection: []StoryConn{}, Anomalies: []StoryAnomaly{}}
	st.Holds, st.Waits = []StoryHold{}, []StoryWait{}
	if p.locks[b.lock] == b {
		// A lock not followed has no log: the state's reading of it is
		// not to be told as what the recording saw.
		spans, told, waits, holds := p.spansOf(b, from, to)
		st.WaitTimes, st.HoldTimes = statsOf(waits), statsOf(holds)
		st.Holds, st.Waits = storySpans(spans, told, b.log, to)
	}
	conns := append(append([]StoryConn(nil), p.conns...), b.conns()...)
	for _, c := range conns {
		if !c.At.Before(from) && !c.At.After(to) {
			st.Connection = append(st.Connection, c)
		}
	}
	sortConns(st.Connection)
	for _, a := range b.anomalies {
		if !a.Arose.After(to) && (a.Cleared.IsZero() || !a.Cleared.Before(from)) {
			st.Anomalies = append(st.Anomalies, a)
		}
	}
	return st
}

// agingHeap orders the followed locks by when their findings are next
// due to be looked at.
type agingHeap []*storyBuilder

func (h agingHeap) Len() int           { return len(h) }
func (h agingHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h agingHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}
func (h *agingHeap) Push(x any) {
	b := x.(*storyBuilder)
	b.at = len(*h)
	*h = append(*h, b)
}
func (h *agingHeap) Pop() any {
	old := *h
	b := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	b.at = -1
	return b
}

// set makes b due at t.
func (h *agingHeap) set(b *storyBuilder, t time.Time) {
	b.due = t
	if b.at >= 0 {
		heap.Fix(h, b.at)
		return
	}
	heap.Push(h, b)
}

// drop makes b due never.
func (h *agingHeap) drop(b *storyBuilder) {
	if b.at >= 0 {
		heap.Remove(h, b.at)
	}
}
