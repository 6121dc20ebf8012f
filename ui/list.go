package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// list is what the list panes (locks, sessions, events) share, embedded in
// each: what they read, their size, the state generation they show, their
// filter and their cursor.
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
