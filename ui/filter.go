package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// filter is a list's filter and its prompt. While typing, every key goes to
// the prompt; the list narrows as the text changes. Matching is
// case-insensitive on the text as displayed (escaped).
type filter struct {
	typing bool
	edit   lineEditor
	lower  string
}

// start opens the prompt on the current text.
func (f *filter) start(k *keyMap) {
	if !f.edit.ready() {
		f.edit = newLineEditor(k, 0)
	}
	f.typing = true
}

// update handles a key while typing and reports whether the text changed.
func (f *filter) update(k keyMap, msg tea.KeyMsg) bool {
	switch {
	case key.Matches(msg, k.Accept):
		f.typing = false
		return false
	case key.Matches(msg, k.Cancel):
		changed := f.text() != ""
		f.clear()
		return changed
	}
	if !f.edit.update(msg) {
		return false
	}
	f.lower = strings.ToLower(f.text())
	return true
}

// text is the filter's text, as typed.
func (f *filter) text() string { return f.edit.value() }

// clear drops the filter.
func (f *filter) clear() { *f = filter{} }

// active reports whether a filter narrows the list.
func (f *filter) active() bool { return f.text() != "" }

// match reports whether any of the texts contains the filter.
func (f *filter) match(texts ...string) bool {
	if f.lower == "" {
		return true
	}
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), f.lower) {
			return true
		}
	}
	return false
}

// matches is what a list's summary says of its filter, n rows matching;
// "" with no filter.
func (f *filter) matches(n int) string {
	if !f.active() {
		return ""
	}
	return " · " + itoa(n) + " match /" + model.Printable(f.text())
}

// none says that none of what matches the filter, and how to clear it:
// what a list with no row left says.
func (f *filter) none(what string) string {
	return what + " matches /" + model.Printable(f.text()) + " (esc clears the filter)"
}

// prompt renders the prompt line, w cells wide.
func (f *filter) prompt(st *styles, w int, matched, total int) string {
	count := st.muted.s(" " + itoa(matched) + " of " + itoa(total) + " · enter keep · esc clear")
	return f.edit.line("/", st.accent, st.cursor, w-width(count)-2) + count
}
