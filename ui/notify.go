package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// Marking a lock to be told when it is granted or released: the status
// line says so and, with Options.Bell, the terminal rings, so that an
// operator waiting on a stuck lock can look elsewhere meanwhile.

// toggleMark marks or unmarks the lock selected.
func (a *App) toggleMark(tea.KeyMsg) tea.Cmd {
	p := a.selection().lockPath
	if p == "" {
		a.say("nothing to mark: select a lock", true)
		return nil
	}
	if a.env.marked[p] {
		delete(a.env.marked, p)
		a.say("unmarked "+model.Printable(p), false)
		return nil
	}
	a.env.marked[p] = true
	how := "the status line says so"
	if a.opt.Bell != nil {
		how += " and the terminal rings"
	}
	a.say("marked "+model.Printable(p)+": when it is granted or released, "+how+" (m again unmarks)", false)
	return nil
}

// notify tells of the grants and releases of marked locks among the
// history entries the last batch of events added (logged before: the
// count of entries ever added before it).
func (a *App) notify(loggedBefore int) tea.Cmd {
	s := a.env.state
	if len(a.env.marked) == 0 || s.Logged == loggedBefore {
		return nil
	}
	added := min(s.Logged-loggedBefore, len(s.History))
	rang := false
	for _, h := range s.History[len(s.History)-added:] {
		if !a.env.marked[h.Lock] || (h.Change != model.Granted && h.Change != model.Released) {
			continue
		}
		a.say("◆ "+model.Printable(h.Lock)+": "+string(h.Change)+" "+model.ShortNode(h.Node)+
			" (session "+model.SessionText(h.Session)+") at "+a.env.clock(h.At), false)
		rang = true
	}
	if !rang || a.opt.Bell == nil {
		return nil
	}
	bell := a.opt.Bell
	return func() tea.Msg { bell(); return nil }
}
