package chaos

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// kind is what a stay in a critical section held.
type kind string

const (
	exclusive kind = "exclusive"
	read      kind = "read"
	write     kind = "write"
	lease     kind = "lease"
)

// entry is one stay in a lock's critical section, by our client or a real
// one.
type entry struct {
	lock, who string
	kind      kind
	// limit is a semaphore's number of leases.
	limit int
	// token is the holder node's czxid; 0 when not known (real clients).
	token       int64
	enter, exit time.Time
	// lostAt is when the holder was told the lock was lost, if it was.
	lostAt time.Time
	// real is set for a real client's stay (Curator, kazoo).
	real bool
}

// told reports whether e's holder had been told of its loss by t: from
// then on it no longer counts as a holder.
func (e entry) told(t time.Time) bool { return !e.lostAt.IsZero() && !e.lostAt.After(t) }

// ledger is the shared record of every critical section.
type ledger struct {
	mu      sync.Mutex
	entries []entry
}

func (l *ledger) add(e entry) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	l.mu.Unlock()
}

// violations checks, per lock, the overlap rule at every entry: an
// exclusive or write holder overlaps no other holder, a reader overlaps
// only readers, and a semaphore never has more holders than its leases. A
// holder told of its loss before the other entered no longer counts. It
// also checks that the fencing tokens of successive exclusive and write
// holders strictly increase.
func (l *ledger) violations() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	byLock := map[string][]entry{}
	for _, e := range l.entries {
		byLock[e.lock] = append(byLock[e.lock], e)
	}
	var out []string
	for lock, es := range byLock {
		sort.Slice(es, func(i, j int) bool { return es[i].enter.Before(es[j].enter) })
		var active []entry
		for _, next := range es {
			kept := active[:0]
			for _, a := range active {
				if a.exit.After(next.enter) && !a.told(next.enter) {
					kept = append(kept, a)
				}
			}
			active = kept
			if v := conflict(next, active); v != "" {
				out = append(out, lock+": "+v)
			}
			active = append(active, next)
		}
		out = append(out, tokenOrder(lock, es)...)
	}
	sort.Strings(out)
	return out
}

// conflict says how next breaks the rule against the holders inside when
// it entered, or "".
func conflict(next entry, inside []entry) string {
	at := next.enter.Format(time.StampMicro)
	switch next.kind {
	case lease:
		if len(inside)+1 > next.limit {
			return fmt.Sprintf("%s entered at %s as holder %d of a semaphore of %d leases (inside: %s)",
				next.who, at, len(inside)+1, next.limit, names(inside))
		}
	case read:
		for _, a := range inside {
			if a.kind != read {
				return fmt.Sprintf("reader %s entered at %s while %s %s (token %d) held until %s",
					next.who, at, a.kind, a.who, a.token, a.exit.Format(time.StampMicro))
			}
		}
	default:
		if len(inside) > 0 {
			return fmt.Sprintf("%s %s (token %d) entered at %s while %s held",
				next.kind, next.who, next.token, at, names(inside))
		}
	}
	return ""
}

func names(es []entry) string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %s until %s", e.kind, e.who, e.exit.Format(time.StampMicro))
	}
	return s
}

// tokenOrder checks that exclusive and write holders' tokens rise in the
// order they entered (es is sorted by enter).
func tokenOrder(lock string, es []entry) []string {
	var out []string
	var prev *entry
	for i := range es {
		e := &es[i]
		if (e.kind != exclusive && e.kind != write) || e.token == 0 {
			continue
		}
		if prev != nil && e.token <= prev.token {
			out = append(out, fmt.Sprintf("%s: token %d of %s follows token %d of %s", lock, e.token, e.who, prev.token, prev.who))
		}
		prev = e
	}
	return out
}

// tally is one mode's figures.
type tally struct {
	ours, real, told int
}

func (l *ledger) tally(locks map[string]string) map[string]*tally {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]*tally{}
	for _, e := range l.entries {
		m := locks[e.lock]
		if out[m] == nil {
			out[m] = &tally{}
		}
		switch {
		case e.real:
			out[m].real++
		default:
			out[m].ours++
		}
		if !e.lostAt.IsZero() {
			out[m].told++
		}
	}
	return out
}

// lastExit is when the newest stay on lock recorded so far ended, or the
// zero time before the first.
func (l *ledger) lastExit(lock string) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	var last time.Time
	for _, e := range l.entries {
		if e.lock == lock && e.exit.After(last) {
			last = e.exit
		}
	}
	return last
}
