package ui

import tea "github.com/charmbracelet/bubbletea"

// Moving between screens: the tabs, drilling into a lock, opening the
// tree, and going to and from the fleet screen.

func (a *App) switchTab(step int) {
	i := 0
	for j, t := range tabs {
		if t == a.tab {
			i = j
		}
	}
	a.setTab(tabs[(i+step+len(tabs))%len(tabs)])
}

func (a *App) setTab(f focus) {
	a.tab, a.drill = f, nil
	a.refresh()
}

// openLock drills into a lock's detail, with node selected when given.
func (a *App) openLock(msg openLockMsg) {
	if a.opt.Focus != nil {
		a.opt.Focus(msg.path)
	}
	a.detail.open(msg.path, msg.node)
	a.drill = []focus{focusDetail}
	a.detail.refresh(a.gen)
}

// browse opens the tree screen, if it is not open, listing p's children.
func (a *App) browse(p string) tea.Cmd {
	if n := len(a.drill); n == 0 || a.drill[n-1] != focusTree {
		a.drill = append(a.drill, focusTree)
	}
	return a.tree.browse(p, "")
}

// openTree opens the tree at the lock selected, or at the root.
func (a *App) openTree(tea.KeyMsg) tea.Cmd {
	if s := a.selection(); s.lockPath != "" {
		return a.browse(s.lockPath)
	}
	return a.browse("/")
}

// FleetBelow reports whether esc on a cluster's screen goes to the fleet
// screen: the cluster was opened from it, or it was looked at. A caller
// that connects the UI to another cluster passes it on as
// Options.FromFleet.
func (a *App) FleetBelow() bool { return a.fleetBelow }

// openFleet shows the fleet screen above the screen shown, starting the
// polls if they have not started; esc comes back.
func (a *App) openFleet() tea.Cmd {
	f := a.opt.Fleet
	switch {
	case f == nil && a.opt.NoFleet != "":
		a.say("no fleet screen: "+a.opt.NoFleet, true)
		return nil
	case f == nil && a.replay != nil:
		a.say("no fleet screen in a replay: a recording holds one cluster", true)
		return nil
	case f == nil:
		a.say("no fleet screen: it lists the config file's contexts, and it defines none (see zklocks config --help)", true)
		return nil
	}
	a.fleetBelow = true
	if a.focused() != focusFleet {
		a.drill = append(a.drill, focusFleet)
	}
	return a.fleet.show()
}

// fleetOpen opens the cluster under the cursor: the one the UI is on
// goes to its locks; another is switched to, as :ctx NAME does.
func (a *App) fleetOpen(tea.KeyMsg) tea.Cmd {
	c, ok := a.fleet.selected()
	if !ok {
		return nil
	}
	if !a.opt.FleetOnly && c.Name == a.opt.Context {
		a.setTab(focusLocks)
		return nil
	}
	return a.switchContext(c.Name)
}

// fleetBack leaves the fleet screen for the screen below it; with no
// cluster open there is none.
func (a *App) fleetBack(msg tea.KeyMsg) tea.Cmd {
	if a.opt.FleetOnly {
		a.say("no cluster is open: enter opens the one under the cursor, q quits", false)
		return nil
	}
	return a.back(msg)
}

// tabFiltered reports whether the tab shown has a filter that esc would
// clear.
func (a *App) tabFiltered() bool {
	switch a.tab {
	case focusLocks:
		return a.locks.filter.active()
	case focusSessions:
		return a.sessions.filter.active()
	case focusEvents:
		return a.events.filter.active()
	}
	return false
}
