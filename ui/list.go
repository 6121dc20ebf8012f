package ui

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
