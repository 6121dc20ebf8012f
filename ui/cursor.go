package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// cursor is a position in a list shown h rows at a time: the selected index
// and the first row on screen. Lists are virtualized: a view renders only
// rows first..first+h.
type cursor struct {
	idx, first int
}

// move handles the movement keys for a list of n rows shown h at a time and
// reports whether msg was one of them.
func (c *cursor) move(k keyMap, msg tea.KeyMsg, n, h int) bool {
	idx, ok := step(k, msg, c.idx, n-1, h)
	if ok {
		c.idx = idx
		c.fix(n, h)
	}
	return ok
}

// step is where a movement key takes position at, shown page rows at a
// time, Bottom taking it to last; ok is false for any other key. The
// caller clamps the result. Every list and every scrolled text moves by
// it, so that a key moves as far on each screen.
func step(k keyMap, msg tea.KeyMsg, at, last, page int) (to int, ok bool) {
	page = max(page, 1)
	half := max(page/2, 1)
	switch {
	case key.Matches(msg, k.Up):
		return at - 1, true
	case key.Matches(msg, k.Down):
		return at + 1, true
	case key.Matches(msg, k.PageUp):
		return at - page, true
	case key.Matches(msg, k.PageDown):
		return at + page, true
	case key.Matches(msg, k.HalfUp):
		return at - half, true
	case key.Matches(msg, k.HalfDown):
		return at + half, true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return last, true
	}
	return at, false
}

// wheelStep is how far a mouse wheel notch moves: three rows, up or down;
// 0 for any other mouse event.
func wheelStep(msg tea.MouseMsg) int {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return -3
	case tea.MouseButtonWheelDown:
		return 3
	}
	return 0
}

// wheel moves by mouse wheel.
func (c *cursor) wheel(msg tea.MouseMsg, n, h int) {
	if d := wheelStep(msg); d != 0 {
		c.idx += d
		c.fix(n, h)
	}
}

// fix clamps the cursor to n rows and scrolls it into a view of h rows.
func (c *cursor) fix(n, h int) {
	c.idx = clamp(c.idx, n)
	c.first = window(c.first, c.idx, h, n)
}

// scroller is an offset into text shown h lines at a time, with no
// selected line.
type scroller struct{ top int }

// move handles the movement keys for text of n lines shown h at a time
// and reports whether msg was one of them.
func (s *scroller) move(k keyMap, msg tea.KeyMsg, n, h int) bool {
	top, ok := step(k, msg, s.top, n, h)
	if ok {
		s.top = top
		s.fix(n, h)
	}
	return ok
}

// wheel scrolls by mouse wheel.
func (s *scroller) wheel(msg tea.MouseMsg, n, h int) { s.by(wheelStep(msg), n, h) }

// by scrolls d lines down (up when negative).
func (s *scroller) by(d, n, h int) {
	s.top += d
	s.fix(n, h)
}

// fix keeps the text's last line at the bottom or below it.
func (s *scroller) fix(n, h int) { s.top = max(0, min(s.top, n-h)) }
