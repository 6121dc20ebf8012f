package ui

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// filter is a list's filter and its prompt. While typing, every key goes to
// the prompt; the list narrows as the text changes. Matching is
// case-insensitive on the text as displayed (escaped).
type filter struct {
	typing bool
	text   string
	lower  string
}

// start opens the prompt on the current text.
func (f *filter) start() { f.typing = true }

// update handles a key while typing and reports whether the text changed.
func (f *filter) update(k keyMap, msg tea.KeyMsg) bool {
	old := f.text
	switch {
	case key.Matches(msg, k.Accept):
		f.typing = false
	case key.Matches(msg, k.Cancel):
		f.typing, f.text = false, ""
	case key.Matches(msg, k.EraseAll):
		f.text = ""
	case key.Matches(msg, k.Erase):
		if r := []rune(f.text); len(r) > 0 {
			f.text = string(r[:len(r)-1])
		}
	case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
		for _, r := range msg.Runes {
			if unicode.IsPrint(r) {
				f.text += string(r)
			}
		}
	}
	f.lower = strings.ToLower(f.text)
	return f.text != old
}

// clear drops the filter.
func (f *filter) clear() { *f = filter{} }

// active reports whether a filter narrows the list.
func (f *filter) active() bool { return f.text != "" }

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

// prompt renders the prompt line, w cells wide.
func (f *filter) prompt(st *styles, w int, matched, total int) string {
	count := st.muted.s(" " + itoa(matched) + " of " + itoa(total) + " · enter keep · esc clear")
	text := "/" + model.Printable(f.text)
	if room := w - width(count) - 2; width(text) > room {
		text = fitTail(text, max(room, 1))
	}
	return st.accent.s(text) + st.cursor.s("█") + count
}
