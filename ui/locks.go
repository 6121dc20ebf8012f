package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// lockOrders are the sort orders the sort key cycles through: worst first
// to begin with (the worst anomaly, then the longest wait, then the most
// contended), then the longest wait first, the most contended first, the
// oldest hold first, by path.
var lockOrders = []string{model.BySeverity, model.ByWait, model.ByContention, model.ByAge, model.ByPath}

// orderIndex is the place of order in lockOrders; worst first (0) for an
// order it does not name.
func orderIndex(order string) int {
	for i, o := range lockOrders {
		if o == order {
			return i
		}
	}
	return 0
}

// lockRow is one line of the locks screen, with what sorting and drawing
// need worked out once per change rather than once per frame.
type lockRow struct {
	lock             *lockcore.Lock // nil for a denied path
	path             string         // the lock's path as ZooKeeper has it
	shown            string         // path, escaped
	holders, waiters int
	heldSince        time.Time // the earliest the oldest holder read can have got it; zero without one
	heldPending      int       // holders not read yet, whose holds are unknown
	waitPending      int       // waiters not read yet, whose waits are unknown
	waitSince        time.Time // when the longest waiter queued; zero without waiter
	kinds            []lockcore.AnomalyKind
	trouble          model.LockTrouble
	// build is the last rebuild that took this row; replaced: its lock
	// changed, and a new row stands for it.
	build    int
	replaced bool
}

// locksPane lists every lock. The cursor follows its lock by path when the
// list re-sorts or changes.
type locksPane struct {
	list
	order int
	// sortChanged, when set, is told each order the operator picks, to
	// remember it (Options.SortChanged).
	sortChanged func(order string)
	// problems shows only the locks with an anomaly (and denied paths).
	problems bool
	rows     []*lockRow
	total    int
	// cache keeps each lock's row while its analysis stays the same (an
	// analysis is never changed in place), so a change to a few of 10,000
	// locks does not recount them all.
	cache map[string]*lockRow
	sel   string // path of the selected lock
	// sorted is what rows are sorted and filtered by, and mark where
	// they stand in the state's changes; build counts rebuilds; spare is
	// the array the next one merges its rows into.
	sorted rowsSort
	mark   model.LockMark
	build  int
	spare  []*lockRow
}

func newLocksPane(e *env) locksPane { return locksPane{list: list{env: e}} }

func (p *locksPane) setSize(w, h int) { p.resize(w, h, len(p.rows)) }

// refresh rebuilds the rows from the state when it changed since gen.
func (p *locksPane) refresh(gen int) {
	if p.stale(gen) {
		p.rebuild()
	}
}

// selected is the row under the cursor; nil when the list is empty.
func (p *locksPane) selected() *lockRow {
	if p.cur.idx >= len(p.rows) {
		return nil
	}
	return p.rows[p.cur.idx]
}

// follow puts the cursor back on the lock the user selected; if it is
// gone, the cursor stays at the same place in the list. Until the user
// picks a lock, the cursor stays where it is (at the top), however the
// list fills and sorts.
func (p *locksPane) follow() {
	p.seek(p.sel, len(p.rows), func(i int) string { return p.rows[i].path })
	if p.sel != "" {
		p.remember()
	}
}

// remember makes the lock under the cursor the one to follow.
func (p *locksPane) remember() {
	if p.cur.idx < len(p.rows) {
		p.sel = p.rows[p.cur.idx].path
	}
}

func newLockRow(l *lockcore.Lock) *lockRow {
	r := &lockRow{lock: l, path: l.Path, shown: model.Printable(l.Path)}
	for i := range l.Participants {
		q := &l.Participants[i]
		if q.Role == lockcore.RoleHolder {
			r.holders++
		} else {
			r.waiters++
		}
	}
	r.waiters += len(l.HiddenWaiters)
	h, ok, pending := model.OldestHold(l)
	if ok {
		r.heldSince = h.After
	}
	r.heldPending = pending
	r.waitPending = model.PendingWaiters(l)
	if at, ok := model.LongestWait(l); ok {
		r.waitSince = at
	}
	r.trouble = model.Trouble(l)
	for _, a := range l.Anomalies {
		if !hasKind(r.kinds, a.Kind) {
			r.kinds = append(r.kinds, a.Kind)
		}
	}
	return r
}

func hasKind(ks []lockcore.AnomalyKind, k lockcore.AnomalyKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func kindsText(ks []lockcore.AnomalyKind) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = string(k)
	}
	return strings.Join(parts, " ")
}

func (p locksPane) update(msg tea.Msg) (locksPane, tea.Cmd) {
	if p.listMsg(msg, len(p.rows), p.rebuild, p.remember) {
		return p, nil
	}
	if msg, ok := msg.(tea.KeyMsg); ok {
		return p.handleKey(msg)
	}
	return p, nil
}

func (p locksPane) handleKey(msg tea.KeyMsg) (locksPane, tea.Cmd) {
	k := p.env.keys
	switch {
	case key.Matches(msg, k.Sort):
		p.order = (p.order + 1) % len(lockOrders)
		p.rebuild()
		if tell, order := p.sortChanged, lockOrders[p.order]; tell != nil {
			return p, func() tea.Msg { tell(order); return nil }
		}
	case key.Matches(msg, k.Problems):
		p.problems = !p.problems
		p.rebuild()
	case key.Matches(msg, k.Open):
		if p.cur.idx >= len(p.rows) {
			return p, nil
		}
		p.remember()
		r := p.rows[p.cur.idx]
		if r.lock == nil {
			return p, flashErr(r.path + ": the ACL denies this session, so its locks cannot be read")
		}
		return p, openLock(r.path, "")
	}
	return p, nil
}

// summary counts what the list shows.
func (p *locksPane) summary() string {
	var b strings.Builder
	b.WriteString(count(len(p.env.state.Locks), "lock", "locks"))
	if n := len(p.env.state.Denied); n > 0 {
		b.WriteString(" · " + itoa(n) + " denied")
	}
	b.WriteString(p.filter.matches(len(p.rows)))
	if p.problems {
		b.WriteString(" · " + count(len(p.rows), "with problems", "with problems"))
	}
	b.WriteString(" · by " + lockOrders[p.order])
	return b.String()
}

// columns are the list's columns. The figures are never cut; the recipe
// and anomalies take what their cells need before the path does; narrower,
// the path is cut, then the anomalies, and the recipe goes, then the
// oldest hold: the worst anomaly stays longest.
func (p *locksPane) columns() []column {
	return []column{
		{title: "PATH", width: 16, flex: true, tail: true},
		{title: "RECIPE", width: 14, most: 20, min: 8, drop: 3},
		{title: "HOLD", width: 4, right: true, whole: true},
		{title: "WAIT", width: 4, right: true, whole: true},
		{title: "OLDEST", width: 6, right: true, whole: true, drop: 2},
		{title: "ANOMALIES", width: 24, most: 40, min: 9, drop: 1},
	}
}

func (p locksPane) view() string {
	return p.listView(p.columns(), len(p.rows), func(i int) []cell { return p.cells(p.rows[i]) }, func(i int) string {
		if p.env.marked[p.rows[i].path] {
			return "◆"
		}
		return ""
	}, p.empty())
}

// empty says why the list shows no lock.
func (p *locksPane) empty() string {
	switch {
	case p.filter.active():
		return p.filter.none("no lock")
	case p.problems:
		return "no lock has an anomaly (" + p.env.keys.Problems.Help().Key + " shows every lock)"
	}
	return "no locks found under the roots yet"
}

// cells are a row's cells.
func (p *locksPane) cells(r *lockRow) []cell {
	st := p.env.st
	var cells []cell
	if r.lock == nil {
		cells = []cell{{text: r.shown}, {text: "access denied", p: st.danger}, {text: "-"}, {text: "-"},
			{text: "-"}, {text: "ACL denied", p: st.muted}}
	} else {
		oldest := "-"
		if r.holders > 0 {
			h, known, pending := model.OldestHold(r.lock)
			oldest = model.OldestHoldShortOf(p.env.held(r.lock, h), known, pending)
		}
		waitPaint := st.muted
		if r.waiters > 0 {
			waitPaint = st.waiter
		}
		holdPaint := st.muted
		if r.holders > 0 {
			holdPaint = st.holder
		}
		var badge cell
		switch n := len(r.lock.Observers); {
		case r.trouble.Kinds > 0:
			badge = cell{text: r.trouble.Short(), p: st.anomaly(r.trouble.Worst)}
		case n > 0:
			// Sessions watching a plain lock's node that are not its
			// waiters: said, so that the WAIT figure is not doubted.
			badge = cell{text: "observers: " + itoa(n), p: st.muted}
		}
		recipe := cell{text: string(r.lock.Recipe), p: st.muted}
		if len(r.lock.Assumed) > 0 {
			// Read by the fallback rule: a guess, and marked as one.
			recipe = cell{text: string(r.lock.Recipe) + "?", p: st.warning}
		}
		cells = []cell{{text: r.shown}, recipe,
			{text: itoa(r.holders), p: holdPaint}, {text: itoa(r.waiters), p: waitPaint},
			{text: oldest}, badge}
	}
	return cells
}

// marker is the cursor column: visible without colour.
func marker(st *styles, selected bool) string {
	if selected {
		return st.cursor.s(">") + " "
	}
	return "  "
}
