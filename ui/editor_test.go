package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
)

// typeKey sends one key the keyMsg helper does not name.
func typeKey(a *App, t tea.KeyType, runes ...rune) {
	send(a, tea.KeyMsg{Type: t, Runes: runes})
}

// TestLineEditorEditsWithinTheLine: the prompts' editor moves its cursor,
// types and erases where it stands, and draws the cursor there.
func TestLineEditorEditsWithinTheLine(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "/", "O", "r", "r", "s")
	typeKey(a, tea.KeyLeft)
	typeKey(a, tea.KeyLeft)
	press(a, "d", "e")
	if got := a.locks.filter.text(); got != "Orders" {
		t.Fatalf("typed within the line: %q, want Orders", got)
	}
	if !strings.Contains(screen(a), "/Orde█rs 1 of 9") {
		t.Fatalf("the cursor is not drawn where it stands:\n%s", screen(a))
	}
	typeKey(a, tea.KeyCtrlW)
	if got := a.locks.filter.text(); got != "rs" {
		t.Fatalf("ctrl+w: %q, want rs", got)
	}
	typeKey(a, tea.KeyEnd)
	press(a, "backspace")
	typeKey(a, tea.KeyHome)
	typeKey(a, tea.KeyDelete)
	if got := a.locks.filter.text(); got != "" || len(a.locks.rows) != a.locks.total {
		t.Fatalf("end, backspace, home, delete: %q, %d of %d rows", got, len(a.locks.rows), a.locks.total)
	}
}

// TestLineEditorTypesOnlyPrintable: a control or format character typed or
// pasted never reaches the text.
func TestLineEditorTypesOnlyPrintable(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "/")
	send(a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("or\u200bd\x1b[2Jers"), Paste: true})
	if got := a.locks.filter.text(); got != "ord[2Jers" {
		t.Fatalf("pasted: %q", got)
	}
}

// TestTimePromptTypesOneSpace: a space is typed once in the replay's time
// prompt (a terminal sends it as a space key carrying the rune).
func TestTimePromptTypesOneSpace(t *testing.T) {
	a := newReplayApp(t, 120, 40, termenv.Ascii)
	press(a, "t", "a")
	typeKey(a, tea.KeySpace, ' ')
	press(a, "b")
	d, ok := openDialog(a).(*timeDialog)
	if !ok || d.edit.value() != "a b" {
		t.Fatalf("typed a, space, b: %#v", openDialog(a))
	}
}

// TestLeaseCountTakesSixDigits: the lease count takes digits, at most six.
func TestLeaseCountTakesSixDigits(t *testing.T) {
	a, _, _ := newOperateApp(t)
	send(a, openLockMsg{path: "/pool/workers"})
	press(a, "a", "l", "1", "2", "3", "4", "5", "6", "7")
	if !strings.Contains(screen(a), "max leases: 123456█") {
		t.Fatalf("seven digits typed:\n%s", screen(a))
	}
}
