package ui

import (
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// sessionRow is a session's heading (q and lock nil) or one of its
// contenders: a participant, or a hidden waiter of a plain ephemeral lock
// (q nil, lock set).
type sessionRow struct {
	session      int64
	lock         *lockcore.Lock
	q            *lockcore.Participant
	forced       *forcedRelease // a contender whose client was not told
	holds, waits int
}

func (r *sessionRow) heading() bool { return r.lock == nil && r.forced == nil }

// key identifies a row across rebuilds.
func (r *sessionRow) key() string {
	k := model.SessionText(r.session)
	if r.lock != nil {
		k += "|" + r.lock.Path
	}
	if r.q != nil {
		k += "|" + r.q.Path
	}
	if r.forced != nil {
		k += "|forced|" + r.forced.node
	}
	return k
}

// sessionsPane answers "what else does this stuck client hold?": every
// session that owns a contender, with its client address and everything it
// holds and waits for across all locks.
type sessionsPane struct {
	list
	rows           []sessionRow
	matched, total int // sessions shown, and in all
	sel            string
}

func newSessionsPane(e *env) sessionsPane { return sessionsPane{list: list{env: e}} }

func (p *sessionsPane) setSize(w, h int) { p.resize(w, h, len(p.rows)) }

func (p *sessionsPane) refresh(gen int) {
	if p.stale(gen) {
		p.rebuild()
	}
}

// owned is one session's contenders while the rows are built.
type owned struct {
	head   sessionRow
	items  []sessionRow
	forced bool // a contender of it was taken without its client being told
}

func (p *sessionsPane) rebuild() {
	list := ownedBySession(p.env.state)
	rows := p.rows[:0]
	p.total, p.matched = len(list), 0
	for _, o := range list {
		items := p.matching(o)
		if len(items) == 0 {
			continue
		}
		sort.Slice(items, func(i, j int) bool { return itemLess(&items[i], &items[j]) })
		p.matched++
		rows = append(rows, o.head)
		rows = append(rows, items...)
	}
	for i := len(rows); i < len(p.rows); i++ {
		p.rows[i] = sessionRow{}
	}
	p.rows = rows
	p.seek(p.sel, len(p.rows), func(i int) string { return p.rows[i].key() })
	if p.sel != "" {
		p.remember()
	}
}

// ownedBySession gathers every session's contenders across all locks,
// with its holds and waits counted, the sessions in the order shown.
func ownedBySession(state *model.State) []*owned {
	by := map[int64]*owned{}
	get := func(s int64) *owned {
		o := by[s]
		if o == nil {
			o = &owned{head: sessionRow{session: s}}
			by[s] = o
		}
		return o
	}
	for _, l := range state.Locks {
		for i := range l.Participants {
			q := &l.Participants[i]
			o := get(q.Session)
			o.items = append(o.items, sessionRow{session: q.Session, lock: l, q: q})
			if q.Role == lockcore.RoleHolder {
				o.head.holds++
			} else {
				o.head.waits++
			}
		}
		for _, s := range l.HiddenWaiters {
			o := get(s)
			o.items = append(o.items, sessionRow{session: s, lock: l})
			o.head.waits++
		}
	}
	// A force-released contender, and an expired holder whose session
	// owns nothing any more: its client may still act as if it held.
	for _, f := range forcedRows(state) {
		o := get(f.session)
		o.items = append(o.items, sessionRow{session: f.session, forced: &f})
		o.forced = true
	}
	list := make([]*owned, 0, len(by))
	for _, o := range by {
		list = append(list, o)
	}
	sort.Slice(list, func(i, j int) bool { return ownedLess(list[i], list[j]) })
	return list
}

// ownedLess puts the sessions that hold most first, then those that wait
// most.
func ownedLess(x, y *owned) bool {
	// A client that was not told of its force-release comes first: it is
	// what the operator follows.
	if x.forced != y.forced {
		return x.forced
	}
	a, b := x.head, y.head
	if a.holds != b.holds {
		return a.holds > b.holds
	}
	if a.waits != b.waits {
		return a.waits > b.waits
	}
	return uint64(a.session) < uint64(b.session)
}

// matching is what the filter keeps of o's contenders: all of them when
// it matches the session or its client, else those whose lock or node it
// matches (none: the session is not shown).
func (p *sessionsPane) matching(o *owned) []sessionRow {
	if p.filter.match(model.SessionText(o.head.session), p.env.client(o.head.session).Short()) {
		return o.items
	}
	items := o.items[:0:0]
	for _, it := range o.items {
		if it.forced != nil {
			if p.filter.match(model.Printable(it.forced.lock), "forced", "expired") {
				items = append(items, it)
			}
			continue
		}
		if p.filter.match(model.Printable(it.lock.Path), itemNode(&it)) {
			items = append(items, it)
		}
	}
	return items
}

func (p *sessionsPane) remember() {
	if p.cur.idx < len(p.rows) {
		p.sel = p.rows[p.cur.idx].key()
	}
}

// itemLess puts holds before waits, then orders by lock and queue.
func itemLess(a, b *sessionRow) bool {
	if (a.forced != nil) != (b.forced != nil) {
		return a.forced != nil
	}
	if a.forced != nil {
		return a.forced.node < b.forced.node
	}
	ha, hb := a.q != nil && a.q.Role == lockcore.RoleHolder, b.q != nil && b.q.Role == lockcore.RoleHolder
	if ha != hb {
		return ha
	}
	if a.lock.Path != b.lock.Path {
		return a.lock.Path < b.lock.Path
	}
	return a.q != nil && b.q != nil && a.q.Position < b.q.Position
}

func itemNode(r *sessionRow) string {
	if r.q == nil {
		return "(watching the node)"
	}
	return model.ShortNode(r.q.Node)
}

func (p sessionsPane) update(msg tea.Msg) (sessionsPane, tea.Cmd) {
	if p.listMsg(msg, len(p.rows), p.rebuild, p.remember) {
		return p, nil
	}
	if msg, ok := msg.(tea.KeyMsg); ok && key.Matches(msg, p.env.keys.Open) {
		p.remember()
		return p, p.open()
	}
	return p, nil
}

// open shows the selected contender's lock; on a heading, its first one.
func (p *sessionsPane) open() tea.Cmd {
	i := p.cur.idx
	if i < len(p.rows) && p.rows[i].heading() {
		i++
	}
	if i >= len(p.rows) || p.rows[i].heading() {
		return nil
	}
	r := p.rows[i]
	if r.forced != nil {
		return openLock(r.forced.lock, "")
	}
	node := ""
	if r.q != nil {
		node = r.q.Path
	}
	return openLock(r.lock.Path, node)
}

func (p *sessionsPane) summary() string {
	return count(p.total, "session owns", "sessions own") + " contenders" + p.filter.matches(p.matched)
}

func (p *sessionsPane) headColumns() []column {
	return []column{
		{title: "SESSION", width: 18},
		{title: "CLIENT", width: 21},
		{title: "HOLDS", width: 5, right: true},
		{title: "WAITS", width: 5, right: true},
		{title: "CONNECTION", width: 12, drop: 2},
		{title: "SERVER", width: 12, flex: true, drop: 1},
	}
}

func (p *sessionsPane) itemColumns() []column {
	return []column{
		{title: "", width: 2},
		{title: "ROLE", width: 6},
		{title: "MODE", width: 5},
		{title: "LOCK", width: 12, flex: true, tail: true},
		{title: "POS", width: 4, right: true, drop: 3},
		{title: "NODE", width: 32, node: true, drop: 1},
		{title: "FOR", width: 6, right: true, whole: true, drop: 2},
	}
}

func (p sessionsPane) view() string {
	st := p.env.st
	end := min(p.cur.first+p.listHeight(), len(p.rows))
	cells := make([][]cell, 0, end-p.cur.first)
	var heads, items [][]cell
	for i := p.cur.first; i < end; i++ {
		r := &p.rows[i]
		if r.heading() {
			// Sized without the last-seen time, which goes where the
			// SERVER column has room once laid out.
			cells = append(cells, p.headCells(r, 0))
			heads = append(heads, cells[len(cells)-1])
		} else if r.forced != nil {
			cells = append(cells, nil) // laid out on its own
		} else {
			cells = append(cells, p.itemCells(r))
			items = append(items, cells[len(cells)-1])
		}
	}
	hc, ic := sizeToContent(p.headColumns(), heads...), sizeToContent(p.itemColumns(), items...)
	hw, iw := layout(hc, p.w-2), layout(ic, p.w-2)
	lines := make([]string, 0, p.h)
	lines = append(lines, "  "+headerRow(hc, hw, st.header))
	if len(p.rows) == 0 {
		msg := "no session owns a contender"
		if p.filter.active() {
			msg = p.filter.none("nothing")
		}
		return strings.Join(append(lines, "  "+st.muted.s(msg)), "\n")
	}
	for i, c := range cells {
		at := p.cur.first + i
		sel := at == p.cur.idx
		if r := &p.rows[at]; r.forced != nil {
			lines = append(lines, p.forcedLine(r, sel))
		} else if r.heading() {
			lines = append(lines, marker(st, sel)+row(hc, hw, p.headCells(r, hw[len(hw)-1]), sel, st.selected))
		} else {
			lines = append(lines, marker(st, sel)+row(ic, iw, c, sel, st.selected))
		}
	}
	return strings.Join(lines, "\n")
}

// headCells are a session's cells; serverWidth is the SERVER column's.
func (p *sessionsPane) headCells(r *sessionRow, serverWidth int) []cell {
	st := p.env.st
	server := cell{p: st.muted}
	if c, ok := p.env.state.Clients[r.session]; ok {
		server.text = "via " + model.Printable(c.Server)
	}
	id := cell{text: model.SessionText(r.session), p: st.strong}
	if r.session == 0 {
		id = cell{text: "persistent", p: st.danger}
	}
	link := p.env.state.Link(r.session)
	if _, listed := p.env.state.Clients[r.session]; listed && link.State == lockcore.LinkUnknown {
		// A session owning no node now (a force-released holder) is not
		// followed for its link, but the members' answer lists it.
		link.State = lockcore.LinkConnected
	}
	conn := cell{text: string(link.State), p: st.muted}
	switch link.State {
	case "":
		conn.text = "-"
	case lockcore.LinkDisconnected:
		conn.p = st.danger
		server = cell{text: "expires: ?", p: st.danger}
		if link.ExpiryKnown() {
			server.text = "expires " + strings.TrimPrefix(p.env.expires(link), "expires within ")
		}
	}
	if u := untoldOf(p.env.state, r.session); u != nil && link.State != lockcore.LinkConnected {
		// Its session is gone; its client, last seen at that address,
		// may not know.
		conn = cell{text: "expired", p: st.danger}
		server = cell{}
		client := cell{text: model.Printable(u.Client), p: st.accent}
		return []cell{id, client, {text: itoa(r.holds), p: st.holder}, {text: itoa(r.waits), p: st.waiter}, conn, server}
	}
	if sl := link.Silent; sl.For > 0 {
		// Connected, but frozen: what its member heard, and when the
		// session goes if it stays silent.
		conn = cell{text: "silent ≥" + model.Duration(sl.For), p: st.danger}
		server = cell{text: "expires ~" + model.Duration(sl.Left(p.env.now())) + " if still silent", p: st.danger}
	}
	client := cell{text: p.env.client(r.session).Short(), p: st.accent}
	if link.LastClient != "" && link.State != lockcore.LinkConnected {
		// The address in its column, and when it was last seen where
		// the SERVER column has room: the CONNECTION column says the
		// address is the last one seen.
		client.text = model.Printable(link.LastClient)
		seen := "last seen " + link.LastSeen.In(p.env.loc).Format(time.TimeOnly)
		switch {
		case server.text == "":
			server = cell{text: seen, p: st.muted}
		case width(seen+", "+server.text) <= serverWidth:
			server.text = seen + ", " + server.text
		}
	}
	return []cell{id, client,
		{text: itoa(r.holds), p: st.holder}, {text: itoa(r.waits), p: st.waiter}, conn, server}
}

func (p *sessionsPane) itemCells(r *sessionRow) []cell {
	st := p.env.st
	if r.q == nil {
		return []cell{{}, {text: "waiter", p: st.waiter}, {text: "X"}, {text: model.Printable(r.lock.Path)},
			{}, {text: "(hidden: watches the node)", p: st.muted}, {}}
	}
	q := r.q
	return []cell{{}, {text: string(q.Role), p: st.role(q.Role)}, {text: modeText(q.Mode)},
		{text: model.Printable(r.lock.Path)}, {text: "#" + itoa(q.Position), p: st.muted},
		{text: model.ShortNode(q.Node), p: st.muted}, {text: p.env.timeText(r.lock, q)}}
}
