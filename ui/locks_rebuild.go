package ui

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// rebuild lists the state's locks in the pane's order. While the order
// and the filter stay the same, the rows whose lock did not change keep
// their places, and only the changed ones, as the state's journal names
// them, are sorted and merged in: during a first sync the locks arrive a
// few at a time, and going over 10,000 of them for each few cost seconds.
func (p *locksPane) rebuild() {
	s := p.env.state
	order := lockOrders[p.order]
	sorted := rowsSort{order: order, filter: p.filter.lower, problems: p.problems, valid: true}
	changed, mark, known := s.LockChanges(p.mark)
	p.mark = mark
	if p.cache == nil {
		p.cache = make(map[string]*lockRow, len(s.Locks))
	}
	p.build++
	var kept, fresh []*lockRow
	if known && p.sorted == sorted {
		kept, fresh = p.takeChanges(changed)
	} else {
		fresh = p.takeAll()
	}
	for path := range s.Denied {
		if _, ok := s.Locks[path]; ok {
			continue
		}
		r := &lockRow{path: path, shown: model.Printable(path)}
		if p.filter.match(r.shown, "denied") {
			fresh = append(fresh, r)
		}
	}
	p.total = len(s.Locks) + len(s.Denied)
	sort.Slice(fresh, func(i, j int) bool { return rowLess(fresh[i], fresh[j], order) })
	merged := mergeRows(p.spare[:0], kept, fresh, order)
	// kept was taken in place from rows: the old array is the next spare.
	p.spare, p.rows, p.sorted = clearRows(p.rows), merged, sorted
	p.follow()
}

// takeAll makes a row of every lock the filter shows, reusing the rows of
// locks that did not change.
func (p *locksPane) takeAll() []*lockRow {
	s := p.env.state
	for path, r := range p.cache {
		if s.Locks[path] != r.lock {
			delete(p.cache, path)
		}
	}
	rows := make([]*lockRow, 0, len(s.Locks))
	for path, l := range s.Locks {
		if r := p.take(path, l); r != nil {
			rows = append(rows, r)
		}
	}
	return rows
}

// takeChanges returns the listed rows whose lock stayed the same, in
// their order (taken in place: rows' array holds them), and a row for
// each changed lock the filter shows.
func (p *locksPane) takeChanges(changed []string) (kept, fresh []*lockRow) {
	s := p.env.state
	for _, path := range changed {
		if r := p.cache[path]; r != nil && s.Locks[path] != r.lock {
			delete(p.cache, path)
			r.replaced = true
		}
	}
	kept = p.rows[:0]
	for _, r := range p.rows {
		if r.lock != nil && !r.replaced {
			r.build = p.build
			kept = append(kept, r)
		}
	}
	for _, path := range changed {
		if l := s.Locks[path]; l != nil {
			if r := p.take(path, l); r != nil {
				fresh = append(fresh, r)
			}
		}
	}
	return kept, fresh
}

// take returns the row of lock l at path, from the cache or made anew,
// unless the filter hides it or this rebuild has taken it already.
func (p *locksPane) take(path string, l *lockcore.Lock) *lockRow {
	r := p.cache[path]
	if r == nil {
		r = newLockRow(l)
		p.cache[path] = r
	}
	if r.build == p.build {
		return nil
	}
	r.build = p.build
	if p.filter.active() && !p.filter.match(r.shown, string(l.Recipe), kindsText(r.kinds)) {
		return nil
	}
	if p.problems && r.trouble.Kinds == 0 {
		return nil
	}
	return r
}

// rowsSort is what a list of rows was sorted and filtered by.
type rowsSort struct {
	order, filter string
	problems      bool
	valid         bool
}

// mergeRows appends to out the merge of two lists sorted by order, a's
// rows before b's equal ones. A few rows (b) merged into many (a), as a
// first sync's batches are into the rows before them, are each placed by
// a binary search in a, whose rows between are copied without a
// comparison: going over 10,000 rows for each few was most of the cost of
// taking them in.
func mergeRows(out, a, b []*lockRow, order string) []*lockRow {
	out = slices.Grow(out, len(a)+len(b))
	if len(b)*bits.Len(uint(len(a))) < len(a) {
		for _, r := range b {
			i := sort.Search(len(a), func(i int) bool { return rowLess(r, a[i], order) })
			out, a = append(append(out, a[:i]...), r), a[i:]
		}
		return append(out, a...)
	}
	for len(a) > 0 && len(b) > 0 {
		if rowLess(b[0], a[0], order) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// clearRows empties rows for reuse, so that it no longer keeps old locks.
func clearRows(rows []*lockRow) []*lockRow {
	clear(rows[:cap(rows)])
	return rows[:0]
}

// rowLess orders rows as model.State.SortedLocks does, except that age
// compares when the oldest hold began, which stays right as time passes.
// Denied paths come last.
func rowLess(a, b *lockRow, order string) bool {
	if (a.lock == nil) != (b.lock == nil) {
		return b.lock == nil
	}
	switch order {
	case model.ByContention:
		if c := rowContention(a, b); c != 0 {
			return c < 0
		}
	case model.ByAge:
		// Known holds first; then locks whose holders are not read yet,
		// whose holds are unknown, not short; then no holder.
		if a.heldSince.IsZero() != b.heldSince.IsZero() {
			return b.heldSince.IsZero()
		}
		if !a.heldSince.Equal(b.heldSince) {
			return a.heldSince.Before(b.heldSince)
		}
		if (a.heldPending > 0) != (b.heldPending > 0) {
			return a.heldPending > 0
		}
	case model.BySeverity:
		// Worst first: the worst anomaly, then the longest wait, then
		// the most contended.
		if a.trouble != b.trouble {
			return a.trouble.Worse(b.trouble)
		}
		if c := cmp.Or(rowWait(a, b), rowContention(a, b)); c != 0 {
			return c < 0
		}
	case model.ByWait:
		if c := rowWait(a, b); c != 0 {
			return c < 0
		}
	}
	return a.path < b.path
}

// rowContention puts the row with more waiters, then more holders, first.
func rowContention(a, b *lockRow) int {
	return cmp.Or(cmp.Compare(b.waiters, a.waiters), cmp.Compare(b.holders, a.holders))
}

// rowWait puts the row whose waiter has waited longest first, then those
// whose waiters are all not read yet, then those without waiter.
func rowWait(a, b *lockRow) int {
	switch {
	case a.waitSince.IsZero() != b.waitSince.IsZero() && b.waitSince.IsZero():
		return -1
	case a.waitSince.IsZero() != b.waitSince.IsZero():
		return 1
	case !a.waitSince.Equal(b.waitSince):
		return a.waitSince.Compare(b.waitSince)
	case (a.waitPending > 0) == (b.waitPending > 0):
		return 0
	case a.waitPending > 0:
		return -1
	}
	return 1
}
