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
	page := max(h, 1)
	switch {
	case key.Matches(msg, k.Up):
		c.idx--
	case key.Matches(msg, k.Down):
		c.idx++
	case key.Matches(msg, k.PageUp):
		c.idx -= page
	case key.Matches(msg, k.PageDown):
		c.idx += page
	case key.Matches(msg, k.HalfUp):
		c.idx -= max(page/2, 1)
	case key.Matches(msg, k.HalfDown):
		c.idx += max(page/2, 1)
	case key.Matches(msg, k.Top):
		c.idx = 0
	case key.Matches(msg, k.Bottom):
		c.idx = n - 1
	default:
		return false
	}
	c.fix(n, h)
	return true
}

// wheel moves by mouse wheel, three rows a notch.
func (c *cursor) wheel(msg tea.MouseMsg, n, h int) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		c.idx -= 3
	case tea.MouseButtonWheelDown:
		c.idx += 3
	default:
		return
	}
	c.fix(n, h)
}

// fix clamps the cursor to n rows and scrolls it into a view of h rows.
func (c *cursor) fix(n, h int) {
	c.idx = clamp(c.idx, n)
	c.first = window(c.first, c.idx, h, n)
}

// scroller is an offset into text shown h lines at a time, with no
// selected line.
type scroller struct{ top int }

func (s *scroller) move(k keyMap, msg tea.KeyMsg, n, h int) bool {
	page := max(h, 1)
	switch {
	case key.Matches(msg, k.Up):
		s.top--
	case key.Matches(msg, k.Down):
		s.top++
	case key.Matches(msg, k.PageUp):
		s.top -= page
	case key.Matches(msg, k.PageDown):
		s.top += page
	case key.Matches(msg, k.HalfUp):
		s.top -= max(page/2, 1)
	case key.Matches(msg, k.HalfDown):
		s.top += max(page/2, 1)
	case key.Matches(msg, k.Top):
		s.top = 0
	case key.Matches(msg, k.Bottom):
		s.top = n
	default:
		return false
	}
	s.fix(n, h)
	return true
}

func (s *scroller) fix(n, h int) { s.top = max(0, min(s.top, n-h)) }
