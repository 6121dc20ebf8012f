package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// eventsPane is the event log (State.History), oldest first, following the
// newest entry while the cursor is on the last line. Grants show in the
// order they happened, with those that overtook an earlier waiter of an
// exclusive lock marked: a fairness demo reads straight off it.
type eventsPane struct {
	list
	rows []int // indexes into History
	tail bool  // the cursor follows the newest entry
}

func newEventsPane(e *env) eventsPane { return eventsPane{list: list{env: e}, tail: true} }

func (p *eventsPane) setSize(w, h int) { p.resize(w, h, len(p.rows)) }

func (p *eventsPane) refresh(gen int) {
	if p.stale(gen) {
		p.rebuild()
	}
}

func (p *eventsPane) rebuild() {
	hist := p.env.state.History
	rows := p.rows[:0]
	for i := range hist {
		h := &hist[i]
		if p.filter.active() && !p.filter.match(string(h.Change), model.Printable(h.Lock), model.ShortNode(h.Node),
			model.SessionText(h.Session), model.Printable(h.Note)) {
			continue
		}
		rows = append(rows, i)
	}
	// In time order: an entry is added when it is learnt, which for a
	// join dated by its node's ctime, or a contender read late, is after
	// entries of later times.
	slices.SortStableFunc(rows, func(i, j int) int { return hist[i].At.Compare(hist[j].At) })
	p.rows = rows
	if p.tail {
		p.cur.idx = len(rows) - 1
	}
	p.cur.fix(len(p.rows), p.listHeight())
}

func (p eventsPane) update(msg tea.Msg) (eventsPane, tea.Cmd) {
	if p.listMsg(msg, len(p.rows), p.rebuild, func() { p.tail = p.cur.idx >= len(p.rows)-1 }) {
		return p, nil
	}
	if msg, ok := msg.(tea.KeyMsg); ok && key.Matches(msg, p.env.keys.Open) {
		return p, p.open()
	}
	return p, nil
}

// open shows the selected entry's lock with its contender selected.
func (p *eventsPane) open() tea.Cmd {
	if p.cur.idx >= len(p.rows) {
		return nil
	}
	h := p.env.state.History[p.rows[p.cur.idx]]
	if h.Lock == "" {
		return nil
	}
	if _, ok := p.env.state.Locks[h.Lock]; !ok {
		return flashErr(h.Lock + " is no longer a lock")
	}
	return openLock(h.Lock, h.NodePath())
}

func (p *eventsPane) summary() string {
	s := p.env.state
	return "grants " + itoa(s.Grants) + " · FIFO breaks " + itoa(s.FIFOBreaks) + " · " + itoa(len(s.History)) + " events" +
		p.filter.matches(len(p.rows))
}

func (p *eventsPane) columns() []column {
	return []column{
		{title: "TIME", width: 13},
		{title: "CHANGE", width: 12},
		{title: "MODE", width: 5},
		{title: "LOCK", width: 12, flex: true, tail: true},
		{title: "NODE", width: 24, node: true, drop: 2},
		{title: "SESSION", width: 18, drop: 3},
		{title: "FIFO", width: 5, drop: 1},
	}
}

func (p eventsPane) view() string {
	st := p.env.st
	hist := p.env.state.History
	first, end := p.cur.first, min(p.cur.first+p.listHeight(), len(p.rows))
	// The selected entry's note (what the operator did, in words and as
	// the audit line, when the operator ended it; what its ending or
	// liveness rests on) takes the last lines, wrapped, never cut, keeping
	// the selected entry in view.
	var note []string
	if p.cur.idx < len(p.rows) {
		note = p.noteLines(entryNote(&hist[p.rows[p.cur.idx]]))
	}
	for len(note) > 0 && 1+end-first+len(note) > p.h && end-first > 1 {
		if p.cur.idx == end-1 {
			first++
		} else {
			end--
		}
	}
	cells := make([][]cell, 0, max(end-first, 0))
	for i := first; i < end; i++ {
		cells = append(cells, p.cells(&hist[p.rows[i]]))
	}
	cols := sizeToContent(p.columns(), cells...)
	widths := layout(cols, p.w-2)
	lines := make([]string, 0, p.h)
	lines = append(lines, "  "+headerRow(cols, widths, st.header))
	if len(p.rows) == 0 {
		msg := "no changes since the first sync: joins, grants, releases and leaves, and zklocks' own connection, appear here as they happen"
		if p.filter.active() {
			msg = p.filter.none("nothing")
		}
		return strings.Join(append(lines, "  "+st.muted.s(clip(msg, p.w-2))), "\n")
	}
	for i, c := range cells {
		sel := first+i == p.cur.idx
		if h := &hist[p.rows[first+i]]; h.Change.Ours() {
			lines = append(lines, marker(st, sel)+p.ourLine(h, c, widths, sel))
			continue
		}
		lines = append(lines, marker(st, sel)+row(cols, widths, c, sel, st.selected))
	}
	for _, l := range note {
		lines = append(lines, "  "+st.muted.s(l))
	}
	return strings.Join(lines, "\n")
}

// noteLines are a note's lines, each of its parts wrapped at the pane's
// width, at most what leaves the header and one entry in view.
func (p eventsPane) noteLines(note string) []string {
	if note == "" {
		return nil
	}
	var lines []string
	for _, part := range strings.Split(note, "\n") {
		lines = append(lines, wrap(model.Printable(part), p.w-2, "  ")...)
	}
	if room := max(p.h-2, 1); len(lines) > room {
		lines = lines[:room]
	}
	return lines
}

// entryNote is the line under the log for the selected entry: the
// operator's audit line, or how a node's ending or a holder's silence
// was told.
func entryNote(h *model.HistoryEntry) string {
	switch {
	case h.Action != nil:
		return model.ActionSentence(*h.Action, "") + "\naudit: " + model.AuditLine(*h.Action)
	case h.Change == model.Silent:
		return "frozen: " + h.Silent.Short(h.At) + ": its member heard nothing from it, not even a ping, for over a third of its session timeout"
	case h.Change == model.Released || h.Change == model.Left:
		if why := model.EndingWhy(*h); why != "" {
			return model.EndingText(*h) + ": " + why
		}
	}
	return ""
}

// changeText is an entry's CHANGE cell: what happened and, for a node
// that went, who or what ended it.
func changeText(h *model.HistoryEntry) string {
	switch h.EndedBy {
	case model.EndedByOperator, model.EndedByOther:
		return "forced"
	case model.EndedByExpiry:
		return "expired"
	case model.EndedByClose:
		return "closed"
	case model.EndedBySessionEnd:
		return "ended?"
	case model.EndedByUnknown:
		return string(h.Change) + "?"
	case model.EndedByRelease:
		// Deleted while its session lived: by its client, or by another
		// client force-releasing it; ZooKeeper does not say which.
		if h.Change == model.Left {
			return "left/forced"
		}
		return "rel/forced"
	}
	return string(h.Change)
}

func (p *eventsPane) cells(h *model.HistoryEntry) []cell {
	st := p.env.st
	t := cell{text: h.At.In(p.env.loc).Format("15:04:05.000"), p: st.muted}
	if h.Seen {
		// First seen then: it happened no later, when is not known.
		t.text = "≤" + t.text
	}
	if h.Change.Ours() {
		// zklocks' own connection, or the ensemble: its words take the
		// rest of the line (ourLine), not the lock's column.
		p := st.muted
		switch h.Change {
		case model.Expired, model.ConnLost, model.MemberDown, model.LeaderChanged:
			p = st.danger
		}
		return []cell{t, {text: string(h.Change), p: p}}
	}
	change := cell{text: changeText(h)}
	if h.Reconstructed {
		change.text += "*"
	}
	switch h.Change {
	case model.Granted:
		change.p = st.holder
	case model.Joined:
		change.p = st.waiter
	case model.Released, model.Left:
		change.p = st.muted
	case model.Disconnected, model.Silent:
		change.p = st.danger
	case model.Woke:
		change.p = st.holder
	}
	if h.EndedBy == model.EndedByExpiry || h.EndedBy == model.EndedByOther {
		// Its client was not told: it may believe it still holds.
		change.p = st.danger
	}
	fifo := cell{}
	if h.OutOfOrder {
		fifo = cell{text: "break", p: st.danger}
	}
	mode := ""
	if h.Mode != "" {
		mode = modeText(lockcore.Mode(h.Mode))
	}
	return []cell{t, change, {text: mode}, {text: model.Printable(h.Lock)}, {text: model.ShortNode(h.Node)},
		{text: model.SessionText(h.Session), p: st.muted}, fifo}
}

// ourLine is an entry about zklocks' own connection or the ensemble: its
// time and change in their columns, then what happened, in words, to the
// end of the line.
func (p *eventsPane) ourLine(h *model.HistoryEntry, c []cell, widths []int, sel bool) string {
	st := p.env.st
	note := model.Printable(h.Note)
	rest := p.w - 2 - widths[0] - widths[1] - 2
	text := fit(c[0].text, widths[0]) + " " + fit(c[1].text, widths[1]) + " " + fit(note, max(rest, 0))
	if sel {
		return st.selected.s(text)
	}
	return c[0].p.s(fit(c[0].text, widths[0])) + " " + c[1].p.s(fit(c[1].text, widths[1])) + " " + c[1].p.s(fit(note, max(rest, 0)))
}
