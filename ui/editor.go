package ui

import (
	"unicode"

	textcursor "github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// lineEditor is the line editor of every prompt: a list's filter, the
// command bar, the replay's time and a semaphore's lease count. bubbles'
// textinput does the editing, on the editing keys of keys.go only (no
// clipboard: under zklocks serve it would be the server's); the prompts
// draw the line themselves, escaped like everything typed, with a block
// cursor. The zero lineEditor is empty and takes no keys: make one with
// newLineEditor.
type lineEditor struct {
	in textinput.Model
}

// newLineEditor returns an empty editor of at most limit characters (0:
// no limit).
func newLineEditor(k *keyMap, limit int) lineEditor {
	in := textinput.New()
	in.KeyMap = textinput.KeyMap{
		CharacterForward:        k.CursorRight,
		CharacterBackward:       k.CursorLeft,
		LineStart:               k.LineStart,
		LineEnd:                 k.LineEnd,
		DeleteCharacterBackward: k.Erase,
		DeleteCharacterForward:  k.EraseNext,
		DeleteWordBackward:      k.EraseWord,
		DeleteBeforeCursor:      k.EraseToStart,
	}
	in.CharLimit = limit
	// Nothing blinks: a blink is a message every half second to every
	// session, for a cursor the prompts draw themselves.
	in.Cursor.SetMode(textcursor.CursorStatic)
	in.Focus()
	return lineEditor{in: in}
}

// ready reports whether the editor was made by newLineEditor.
func (e *lineEditor) ready() bool { return e.in.Focused() }

// update edits the line as msg asks and reports whether its text changed.
// Only printable characters are typed.
func (e *lineEditor) update(msg tea.KeyMsg) bool {
	if msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace {
		var keep []rune
		for _, r := range msg.Runes {
			if unicode.IsPrint(r) {
				keep = append(keep, r)
			}
		}
		msg.Runes = keep
	}
	old := e.in.Value()
	e.in, _ = e.in.Update(msg)
	return e.in.Value() != old
}

// value is the text typed.
func (e *lineEditor) value() string { return e.in.Value() }

// set replaces the text, the cursor at its end.
func (e *lineEditor) set(s string) {
	e.in.SetValue(s)
	e.in.CursorEnd()
}

// line draws lead and the text, escaped, in text's paint, and the cursor
// in cur's, in room cells besides the cursor's; a text too long for them
// keeps the cursor and what is before it in view.
func (e *lineEditor) line(lead string, text, cur paint, room int) string {
	r := []rune(e.in.Value())
	pos := min(e.in.Position(), len(r))
	head, tail := lead+model.Printable(string(r[:pos])), model.Printable(string(r[pos:]))
	room = max(room, 1)
	switch {
	case width(head) > room:
		head, tail = fitTail(head, room), ""
	case width(head) == room:
		tail = ""
	case width(head)+width(tail) > room:
		tail = clip(tail, room-width(head))
	}
	return text.s(head) + cur.s("█") + text.s(tail)
}
