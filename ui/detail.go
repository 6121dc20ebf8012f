package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// detailPane shows one lock: its queue in order above, and below it what
// is known of the selected participant (what it waits on, its chain to a
// holder, who watches it) and of the lock (anomalies with their evidence,
// hidden waiters). When the lock goes, its last picture stays, marked gone.
type detailPane struct {
	env   *env
	w, h  int
	gen   int
	path  string
	lock  *lockcore.Lock
	gone  bool
	index map[string]int // participant Node → queue index, for lock
	cur   cursor
	sel   string // Path of the selected participant
	full  bool   // full node names instead of shortened ones
	info  []string
	// scroll is the first line of info shown.
	scroll scroller
	// infoAt is the instant info was worked out for: its holds and waits
	// are as of then.
	infoAt time.Time
}

func newDetailPane(e *env) detailPane { return detailPane{env: e} }

// open shows the lock at path, with the participant whose Path is node
// selected (the head of the queue when empty or not found).
func (p *detailPane) open(path, node string) {
	*p = detailPane{env: p.env, w: p.w, h: p.h, full: p.full, path: path, sel: node}
}

func (p *detailPane) setSize(w, h int) {
	p.w, p.h = w, h
	p.follow()
}

func (p *detailPane) refresh(gen int) {
	if p.gen == gen && p.lock != nil {
		return
	}
	p.gen = gen
	l := p.env.state.Locks[p.path]
	p.gone = l == nil
	if l != nil && l != p.lock {
		p.lock = l
		p.index = make(map[string]int, len(l.Participants))
		for i, q := range l.Participants {
			p.index[q.Node] = i
		}
	}
	p.follow()
}

// follow keeps the cursor on the selected participant, by path.
func (p *detailPane) follow() {
	n := p.count()
	if p.lock != nil {
		for i := range p.lock.Participants {
			if p.lock.Participants[i].Path == p.sel {
				p.cur.idx = i
				break
			}
		}
	}
	qh, _ := p.split()
	p.cur.fix(n, qh)
	if q := p.selected(); q != nil {
		p.sel = q.Path
	}
	p.buildInfo()
}

func (p *detailPane) count() int {
	if p.lock == nil {
		return 0
	}
	return len(p.lock.Participants)
}

// selected returns the participant under the cursor, or nil.
// shown is the lock on screen: its path, its analysis (nil before the
// first read) and whether it is gone.
func (p *detailPane) shown() (path string, l *lockcore.Lock, gone bool) {
	return p.path, p.lock, p.gone
}

func (p *detailPane) selected() *lockcore.Participant {
	if p.lock == nil || p.cur.idx >= len(p.lock.Participants) {
		return nil
	}
	return &p.lock.Participants[p.cur.idx]
}

// split divides the body below the lock's header, column titles and the
// separator: the queue gets what it needs up to three fifths, the
// information below the rest (less the lines about our own lock, when
// there are), so the layout does not jump as the cursor moves.
func (p *detailPane) split() (queue, info int) {
	avail := max(p.h-3, 2)
	if avail < 8 {
		return avail + 1, 0 // too short to share: the queue only
	}
	n := max(p.count(), 1)
	queue = min(n, max(avail-avail*2/5, 1))
	return queue, avail - queue - len(p.ownLines())
}

func (p detailPane) update(msg tea.Msg) (detailPane, tea.Cmd) {
	qh, ih := p.split()
	switch msg := msg.(type) {
	case tea.MouseMsg:
		p.cur.wheel(msg, p.count(), qh)
		p.moved()
	case tea.KeyMsg:
		k := p.env.keys
		switch {
		case p.cur.move(*k, msg, p.count(), qh):
			p.moved()
		case key.Matches(msg, k.InfoDown):
			p.scroll.by(max(ih/2, 1), len(p.info), ih)
		case key.Matches(msg, k.InfoUp):
			p.scroll.by(-max(ih/2, 1), len(p.info), ih)
		case key.Matches(msg, k.FullNode):
			p.full = !p.full
			p.buildInfo()
		case key.Matches(msg, k.Open):
			if q := p.selected(); q != nil {
				return p, openNode(*q)
			}
		}
	}
	return p, nil
}

// moved records a cursor move and shows the new selection's information
// from its top.
func (p *detailPane) moved() {
	if q := p.selected(); q != nil {
		p.sel = q.Path
	}
	p.scroll.top = 0
	p.buildInfo()
}

func (p *detailPane) summary() string {
	if p.lock == nil {
		return "lock"
	}
	if p.count() == 0 {
		// Nothing to select: no contender holds or waits.
		return "lock · free"
	}
	return "lock · " + itoa(p.cur.idx+1) + "/" + itoa(p.count())
}

func (p *detailPane) columns() []column {
	return []column{
		{title: "POS", width: 3, right: true},
		{title: "ROLE", width: 6},
		{title: "MODE", width: 5},
		{title: "NODE", width: 20, flex: true, node: true},
		{title: "SESSION", width: 18, drop: 3},
		{title: "CLIENT", width: 21, drop: 4},
		{title: "FOR", width: 6, right: true, whole: true, drop: 2},
		{title: "TOKEN", width: 11, whole: true, drop: 5},
		{title: "WAITS ON", width: 10, drop: 1},
		{title: "DATA", width: 18, drop: 6},
	}
}

func (p detailPane) view() string {
	st := p.env.st
	if p.lock == nil {
		return " " + st.danger.s("lock "+model.Printable(p.path)+" is gone") + "\n " + st.muted.s("esc goes back")
	}
	qh, ih := p.split()
	if ih > 0 && !p.infoAt.Equal(p.env.now()) {
		// The rows below are drawn as of now; so is what is said of the
		// selection, or a hold would read one figure in its row and an
		// older one under it (p is a copy: the pane keeps its own).
		p.buildInfo()
	}
	end := min(p.cur.first+qh, p.count())
	cells := make([][]cell, 0, end-p.cur.first)
	for i := p.cur.first; i < end; i++ {
		cells = append(cells, p.cells(&p.lock.Participants[i]))
	}
	cols := sizeToContent(p.columns(), cells...)
	if p.full {
		// Full names were asked for: the other columns give way to them.
		cols[3].width = max(cols[3].width, cols[3].want)
	}
	widths := layout(cols, p.w-2)
	lines := make([]string, 0, p.h)
	lines = append(lines, p.header(), "  "+headerRow(cols, widths, st.header))
	if p.count() == 0 {
		lines = append(lines, "  "+st.muted.s("no contenders: nobody holds or waits"))
	}
	for i, c := range cells {
		at := p.cur.first + i
		lines = append(lines, p.rowMarker(&p.lock.Participants[at], at == p.cur.idx)+
			row(cols, widths, c, at == p.cur.idx, st.selected))
	}
	if ih == 0 {
		return strings.Join(lines, "\n")
	}
	for len(lines) < 2+qh {
		lines = append(lines, "")
	}
	lines = append(lines, p.ownLines()...)
	lines = append(lines, p.separator())
	end = min(p.scroll.top+ih, len(p.info))
	for i := p.scroll.top; i < end; i++ {
		line := p.info[i]
		if i == end-1 && end < len(p.info) {
			line = st.muted.s("  … " + itoa(len(p.info)-end) + " more lines: J scrolls down, K up")
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// header is the lock's one-line description.
func (p *detailPane) header() string {
	st, l := p.env.st, p.lock
	var b strings.Builder
	if p.gone {
		// First, where no width can cut it off.
		b.WriteString(" " + st.badgeStale.s(" GONE "))
	}
	b.WriteString(" " + st.strong.s(model.Printable(l.Path)))
	if p.env.marked[l.Path] {
		b.WriteString(st.accent.s(" ◆"))
	}
	b.WriteString("  " + st.accent.s(string(l.Recipe)))
	if len(l.Assumed) > 0 {
		b.WriteString(st.warning.s("? assumed"))
	}
	b.WriteString(st.muted.s(" · ") + st.holder.s(itoa(l.Holders())+" holding") + st.muted.s(" · ") +
		st.waiter.s(itoa(l.Waiters())+" waiting"))
	if l.MaxLeases != nil {
		b.WriteString(st.muted.s(" · max leases " + itoa(*l.MaxLeases)))
	} else if l.Recipe == lockcore.RecipeCuratorSemaphore {
		b.WriteString(st.muted.s(" · max leases unknown"))
	}
	b.WriteString(st.muted.s(" · watches: " + string(l.WatchesSource)))
	return b.String()
}

func (p *detailPane) separator() string {
	st := p.env.st
	title := "─ lock "
	if q := p.selected(); q != nil {
		title = "─ #" + itoa(q.Position) + " " + string(q.Role) + " "
	}
	return st.muted.s(title + strings.Repeat("─", max(p.w-width(title), 0)))
}

// cells are the queue's cells for q.
func (p *detailPane) cells(q *lockcore.Participant) []cell {
	st := p.env.st
	sessionPaint := paint{}
	if q.Session == 0 {
		sessionPaint = st.danger
	}
	return []cell{
		{text: itoa(q.Position)},
		{text: string(q.Role), p: st.role(q.Role)},
		{text: modeText(q.Mode)},
		{text: nodeText(q.Node, p.full)},
		{text: model.SessionText(q.Session), p: sessionPaint},
		{text: p.env.client(q.Session).Short(), p: st.muted},
		{text: p.timeText(q)},
		{text: tokenText(q, true), p: st.muted},
		p.waitsOn(q),
		{text: dataCell(q), p: st.muted},
	}
}

// timeText is the FOR cell: growing with the clock while the lock is
// live; as last read once it is gone, as nothing holds or waits there any
// more.
func (p *detailPane) timeText(q *lockcore.Participant) string {
	if !p.gone {
		return p.env.timeText(p.lock, q)
	}
	if q.Pending {
		return model.PendingMark
	}
	if q.Role == lockcore.RoleHolder {
		return model.HoldShort(q.Hold)
	}
	return model.Duration(q.Age)
}

// waitsOn is the queue's watch-target cell: the position watched, a
// children watch, or nothing for a waiter that will not wake.
func (p *detailPane) waitsOn(q *lockcore.Participant) cell {
	st := p.env.st
	switch {
	case q.Role == lockcore.RoleHolder && q.Watches == nil:
		return cell{}
	case q.WatchesUnknown:
		return cell{text: "unknown", p: st.warning}
	case q.Watches == nil && len(p.lock.Assumed) > 0:
		// A children watch, which the fallback rule cannot rule out,
		// is never listed: no node seen is all that is known.
		return cell{text: "unseen", p: st.warning}
	case q.Watches == nil:
		return cell{text: "nothing", p: st.danger}
	case q.Watches.Children:
		return cell{text: "→ " + model.WatchedText(q.Watches), p: st.muted}
	}
	if i, ok := p.index[q.Watches.Node]; ok {
		return cell{text: "→ #" + itoa(i)}
	}
	return cell{text: "→ " + model.ShortNode(q.Watches.Node), p: st.warning}
}
