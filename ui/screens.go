package ui

import tea "github.com/charmbracelet/bubbletea"

// The screens: each is a pane the App holds as a field, named by a focus.
// The App reaches the focused one only through the pane interface;
// adding a screen is its pane, a focus below (with its name, and a place
// in tabs if it is a tab), a case in App.pane, and its keys in
// keyMap.screenKeys (docs/architecture.md, Adding a screen).

// focus names a screen.
type focus int

const (
	focusLocks focus = iota
	focusSessions
	focusEvents
	focusDetail
	focusNode
	focusTimeline
	focusTree
	focusFleet
	focusCount
)

// tabs are the top-level screens, in order; the others are reached by
// drilling in (a lock's detail, then a node).
var tabs = []focus{focusLocks, focusSessions, focusEvents, focusTimeline}

// tabNames are the tabs' names in the title bar.
var tabNames = map[focus]string{focusLocks: "Locks", focusSessions: "Sessions", focusEvents: "Events",
	focusTimeline: "Timeline"}

// pane is what the App asks of a screen's pane.
type pane interface {
	// setSize gives the pane the body's size.
	setSize(w, h int)
	// refresh brings the pane up to the state of generation gen.
	refresh(gen int)
	view() string
	// summary is the pane's one-line description of itself, in the title bar.
	summary() string
	// handle takes a key its screen's key map hands it, or a mouse event.
	handle(msg tea.Msg) tea.Cmd
	// prompt is the pane's filter prompt, w cells wide, and whether it is
	// open; an open prompt takes every key.
	prompt(w int) (string, bool)
	// copyable is what the copy keys copy of the selection (copy.go): a
	// path ("" for none) and a session (0 for none).
	copyable() (path string, session int64)
}

// pane returns the screen f's pane.
func (a *App) pane(f focus) pane {
	switch f {
	case focusSessions:
		return &a.sessions
	case focusEvents:
		return &a.events
	case focusDetail:
		return &a.detail
	case focusNode:
		return &a.node
	case focusTree:
		return &a.tree
	case focusFleet:
		return &a.fleet
	case focusTimeline:
		return timelineScreen{timelinePane: &a.timeline, follow: a.selectedLockPath}
	}
	return &a.locks
}

// focused returns the screen that gets keys.
func (a *App) focused() focus {
	if n := len(a.drill); n > 0 {
		return a.drill[n-1]
	}
	return a.tab
}

func (a *App) handleResize(w, h int) {
	a.width, a.height = w, h
	a.help.Width = w
	for f := range focusCount {
		a.pane(f).setSize(w, max(h-3, 1))
	}
	if a.over != nil {
		a.over.setSize(w, max(h-3, 1))
	}
}

// refresh brings the focused screen up to date with the state; the others
// catch up when they get focus.
func (a *App) refresh() { a.pane(a.focused()).refresh(a.gen) }

// toFocused hands a key or mouse message to the focused screen.
func (a *App) toFocused(msg tea.Msg) tea.Cmd { return a.pane(a.focused()).handle(msg) }

// typing reports whether the focused screen's filter prompt takes every key.
func (a *App) typing() bool {
	_, open := a.pane(a.focused()).prompt(a.width)
	return open
}

// selection is what the focused screen shows selected, for the operations.
func (a *App) selection() selection {
	s := selection{screen: a.focused()}
	switch s.screen {
	case focusDetail:
		s.lockPath, s.lock, s.gone = a.detail.shown()
		s.participant = a.detail.selected()
	case focusLocks:
		if r := a.locks.selected(); r != nil {
			s.lockPath, s.lock = r.path, r.lock
		}
	}
	return s
}

// operated hands an operation's message to the operator; the detail then
// lays out again, as our own lock's lines take room from its information.
func (a *App) operated(msg tea.Msg) tea.Cmd {
	cmd := a.op.update(msg, a.selection())
	a.detail.buildInfo()
	return cmd
}

func (p *locksPane) handle(msg tea.Msg) (cmd tea.Cmd)    { *p, cmd = p.update(msg); return cmd }
func (p *sessionsPane) handle(msg tea.Msg) (cmd tea.Cmd) { *p, cmd = p.update(msg); return cmd }
func (p *eventsPane) handle(msg tea.Msg) (cmd tea.Cmd)   { *p, cmd = p.update(msg); return cmd }
func (p *detailPane) handle(msg tea.Msg) (cmd tea.Cmd)   { *p, cmd = p.update(msg); return cmd }
func (p *nodePane) handle(msg tea.Msg) (cmd tea.Cmd)     { *p, cmd = p.update(msg); return cmd }
func (p *timelinePane) handle(msg tea.Msg) (cmd tea.Cmd) { *p, cmd = p.update(msg); return cmd }
func (p *treePane) handle(msg tea.Msg) (cmd tea.Cmd)     { *p, cmd = p.update(msg); return cmd }

func (p *locksPane) prompt(w int) (string, bool) {
	if !p.filter.typing {
		return "", false
	}
	return p.filter.prompt(p.env.st, w, len(p.rows), p.total), true
}

func (p *sessionsPane) prompt(w int) (string, bool) {
	if !p.filter.typing {
		return "", false
	}
	return p.filter.prompt(p.env.st, w, p.matched, p.total), true
}

func (p *eventsPane) prompt(w int) (string, bool) {
	if !p.filter.typing {
		return "", false
	}
	return p.filter.prompt(p.env.st, w, len(p.rows), len(p.env.state.History)), true
}

// The panes without a filter.
func (p *detailPane) prompt(int) (string, bool)   { return "", false }
func (p *nodePane) prompt(int) (string, bool)     { return "", false }
func (p *timelinePane) prompt(int) (string, bool) { return "", false }
func (p *treePane) prompt(int) (string, bool)     { return "", false }

// timelineScreen is the timeline as a screen: it follows the lock
// selected on the other screens.
type timelineScreen struct {
	*timelinePane
	follow func() string
}

func (s timelineScreen) refresh(gen int) { s.timelinePane.refresh(gen, s.follow()) }
