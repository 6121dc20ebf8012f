package ui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// commandBar is the : prompt (goto.go says where it goes): a lock's path
// or a screen's name, completed with tab. It draws only its prompt line,
// below the status bar, over the focused screen left as it is.
type commandBar struct {
	env   *env
	edit  lineEditor
	fleet bool // the fleet screen is one to complete to
	w     int
}

// newCommandBar is an empty command bar over a's screen.
func newCommandBar(a *App) overlay {
	return &commandBar{env: a.env, edit: newLineEditor(a.env.keys, 0), fleet: a.opt.Fleet != nil}
}

func (c *commandBar) setSize(w, _ int) { c.w = w }

// update takes every key: enter goes where the text says, esc cancels,
// tab completes, and the rest edits.
func (c *commandBar) update(a *App, msg tea.KeyMsg) (bool, tea.Cmd) {
	k := c.env.keys
	switch {
	case key.Matches(msg, k.Accept):
		return true, a.runCommand(strings.TrimSpace(c.edit.value()))
	case key.Matches(msg, k.Cancel):
		return true, nil
	case key.Matches(msg, k.Complete):
		c.edit.set(c.complete(c.edit.value()))
	default:
		c.edit.update(msg)
	}
	return false, nil
}

func (c *commandBar) view(under func() string) string { return under() }

// bottom is the prompt line.
func (c *commandBar) bottom() []string {
	st, text := c.env.st, c.edit.value()
	hint := " " + count(len(c.candidates(text)), "match", "matches") + " · tab completes · enter goes · esc cancels"
	if text == "" {
		hint = " a lock's path, or locks, sessions, events, timeline, fleet, ctx · esc cancels"
	}
	hint = st.muted.s(hint)
	return []string{c.edit.line(":", st.accent, st.cursor, c.w-width(hint)-2) + hint}
}

// candidates are what text may complete to: the locks' paths for a path,
// the screens' names otherwise.
func (c *commandBar) candidates(text string) []string {
	var out []string
	if strings.HasPrefix(text, "/") {
		for p := range c.env.state.Locks {
			if strings.HasPrefix(p, text) {
				out = append(out, p)
			}
		}
	} else {
		for name := range screenCommands {
			if strings.HasPrefix(name, strings.ToLower(text)) {
				out = append(out, name)
			}
		}
		if c.fleet && strings.HasPrefix("fleet", strings.ToLower(text)) {
			out = append(out, "fleet")
		}
	}
	sort.Strings(out)
	return out
}

// complete extends text to what every candidate shares.
func (c *commandBar) complete(text string) string {
	cands := c.candidates(text)
	if len(cands) == 0 {
		return text
	}
	common := cands[0]
	for _, s := range cands[1:] {
		for !strings.HasPrefix(s, common) {
			common = common[:len(common)-1]
		}
	}
	if len(common) > len(text) {
		return common
	}
	return text
}
