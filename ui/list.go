package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// list is what the list panes (locks, sessions, events, the tree and the
// fleet) share, embedded in each: what they read, their size, the state
// generation they show, their filter (where their key map has one) and
// their cursor.
type list struct {
	env    *env
	w, h   int
	gen    int
	filter filter
	cur    cursor
}

// listHeight is the rows left for the list under its column titles.
func (l *list) listHeight() int { return max(l.h-1, 1) }

// resize takes the pane's new size, for a list of n rows.
func (l *list) resize(w, h, n int) {
	l.w, l.h = w, h
	l.cur.fix(n, l.listHeight())
}

// stale reports whether the state moved on from the generation shown, to
// gen, and takes gen as shown.
func (l *list) stale(gen int) bool {
	if l.gen == gen {
		return false
	}
	l.gen = gen
	return true
}

// seek puts the cursor on the row of n whose key(i) is sel, when sel is
// not "" and one is (otherwise it stays at the same place), and in view.
func (l *list) seek(sel string, n int, key func(i int) string) {
	if sel != "" {
		for i := range n {
			if key(i) == sel {
				l.cur.idx = i
				break
			}
		}
	}
	l.cur.fix(n, l.listHeight())
}

// listMsg does what every list does with msg, for a list of n rows: the
// mouse wheel and the keys of listKey move the cursor, and then moved
// runs (any mouse event counts, as the wheel may have moved it); a
// filter changed runs rebuild. handled says msg needs nothing more.
func (l *list) listMsg(msg tea.Msg, n int, rebuild, moved func()) (handled bool) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		l.cur.wheel(msg, n, l.listHeight())
		moved()
		return true
	case tea.KeyMsg:
		handled, move, refilter := l.listKey(msg, n)
		if refilter {
			rebuild()
		}
		if move {
			moved()
		}
		return handled
	}
	return false
}

// listKey does what every list does with a key, for a list of n rows: its
// filter prompt takes every key while open; the movement keys move the
// cursor, the filter key opens the prompt and Back clears a filter.
// handled says msg was one of those; moved that the cursor moved; refilter
// that the filter changed, so the rows are to be built again.
func (l *list) listKey(msg tea.KeyMsg, n int) (handled, moved, refilter bool) {
	k := l.env.keys
	switch {
	case l.filter.typing:
		return true, false, l.filter.update(*k, msg)
	case l.cur.move(*k, msg, n, l.listHeight()):
		return true, true, false
	case key.Matches(msg, k.Filter):
		l.filter.start(k)
		return true, false, false
	case key.Matches(msg, k.Back) && l.filter.active():
		l.filter.clear()
		return true, false, true
	}
	return false, false, false
}

// listView draws the rows on screen of a list of n rows under its
// columns' titles: row i's cells are cells(i), the columns sized to the
// rows shown and fitted to the pane's width, the selected row marked and
// highlighted. glyph(i), when not "", stands beside the cursor mark of
// row i; empty says why a list of no rows has none.
func (l *list) listView(cols []column, n int, cells func(i int) []cell, glyph func(i int) string, empty string) string {
	st := l.env.st
	end := min(l.cur.first+l.listHeight(), n)
	shown := make([][]cell, 0, max(end-l.cur.first, 0))
	for i := l.cur.first; i < end; i++ {
		shown = append(shown, cells(i))
	}
	cols = sizeToContent(cols, shown...)
	widths := layout(cols, l.w-2)
	lines := make([]string, 0, l.h)
	lines = append(lines, "  "+headerRow(cols, widths, st.header))
	if n == 0 {
		return strings.Join(append(lines, "  "+st.muted.s(clip(empty, l.w-2))), "\n")
	}
	for i, c := range shown {
		at := l.cur.first + i
		sel := at == l.cur.idx
		m := marker(st, sel)
		if g := glyph(at); g != "" {
			m = m[:len(m)-1] + st.accent.s(g)
		}
		lines = append(lines, m+row(cols, widths, c, sel, st.selected))
	}
	return strings.Join(lines, "\n")
}
