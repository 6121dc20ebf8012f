package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// What a key map is made of; the maps themselves are in keys.go.

// keyDo is what a binding does when pressed; nil hands the key to the
// focused pane, whose update knows the binding.
type keyDo func(a *App, msg tea.KeyMsg) tea.Cmd

// helpColumn is the help overlay's column a binding is listed in.
type helpColumn int

const (
	colMove    helpColumn = iota // moving in the screen
	colScreens                   // opening, going back, changing screens
	colScreen                    // what the screen itself does
	colDemo                      // the demo's controls
	colReplay                    // the replay's time cursor
	colOperate                   // the operations, listed on a line of their own
)

// binding is one entry of a key map: a binding, what it does and where
// the help lists it.
type binding struct {
	key *key.Binding
	do  keyDo
	col helpColumn
}

// keySet is the key map of one screen (or overlay) in one mode: every key
// it answers, and the one-line help.
type keySet struct {
	bindings []binding
	short    []key.Binding
}

// add appends bs, all doing do and listed in col.
func (s *keySet) add(col helpColumn, do keyDo, bs ...*key.Binding) {
	for _, b := range bs {
		s.bindings = append(s.bindings, binding{key: b, do: do, col: col})
	}
}

// find returns the binding msg presses, whether enabled or not (a
// disabled operation still answers, to say why), and whether there is one.
func (s keySet) find(msg tea.KeyMsg) (binding, bool) {
	for _, b := range s.bindings {
		if pressed(msg, *b.key) {
			return b, true
		}
	}
	return binding{}, false
}

// columns are the help overlay's columns, the operations' left out.
func (s keySet) columns() [][]key.Binding {
	cols := make([][]key.Binding, colOperate)
	for _, b := range s.bindings {
		if b.col < colOperate {
			cols[b.col] = append(cols[b.col], *b.key)
		}
	}
	return cols
}

// in returns the bindings listed in col.
func (s keySet) in(col helpColumn) []key.Binding {
	var out []key.Binding
	for _, b := range s.bindings {
		if b.col == col {
			out = append(out, *b.key)
		}
	}
	return out
}

// pressed reports whether msg is one of b's keys, whether b is enabled or
// not.
func pressed(msg tea.KeyMsg, b key.Binding) bool {
	for _, k := range b.Keys() {
		if msg.String() == k {
			return true
		}
	}
	return false
}
