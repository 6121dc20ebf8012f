package chaos

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// entry is one stay in a lock's critical section.
type entry struct {
	lock, who   string
	token       int64
	enter, exit time.Time
	// lostAt is when the holder was told the lock was lost, if it was.
	lostAt time.Time
}

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

// violations checks, per lock, that no two holders overlap unless the
// earlier had been told it lost the lock before the later entered, and that
// successive holders' fencing tokens strictly increase.
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
		for i := 1; i < len(es); i++ {
			prev, next := es[i-1], es[i]
			told := !prev.lostAt.IsZero() && !prev.lostAt.After(next.enter)
			if next.enter.Before(prev.exit) && !told {
				out = append(out, fmt.Sprintf("%s: %s (token %d) entered at %s while %s (token %d) held until %s",
					lock, next.who, next.token, next.enter.Format(time.StampMicro), prev.who, prev.token, prev.exit.Format(time.StampMicro)))
			}
			if next.token <= prev.token {
				out = append(out, fmt.Sprintf("%s: token %d of %s follows token %d of %s", lock, next.token, next.who, prev.token, prev.who))
			}
		}
	}
	return out
}

func (l *ledger) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}
