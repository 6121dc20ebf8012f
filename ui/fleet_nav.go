package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// Going to and from the fleet screen.

// startFleet takes the fleet's first snapshot, and opens the fleet
// screen when the App has no cluster.
func (a *App) startFleet() {
	if a.opt.Message != "" {
		a.say(a.opt.Message, true)
	}
	f := a.opt.Fleet
	if f == nil {
		return
	}
	a.fleet.interval = f.Interval()
	a.fleet.sel = a.opt.Context
	a.fleetBelow = a.opt.FromFleet
	if a.opt.FleetOnly {
		f.Start()
		a.drill = []focus{focusFleet}
	}
	rows, changed := f.Snapshot()
	a.fleet.set(rows)
	a.fleetChanges = changed
}

// FleetBelow reports whether esc on a cluster's screen goes to the fleet
// screen: the cluster was opened from it, or it was looked at. A caller
// that connects the UI to another cluster passes it on as
// Options.FromFleet.
func (a *App) FleetBelow() bool { return a.fleetBelow }

// fleetChanged takes the fleet's new snapshot and waits for the next.
func (a *App) fleetChanged() tea.Cmd {
	rows, changed := a.opt.Fleet.Snapshot()
	a.fleet.set(rows)
	return waitFleet(changed)
}

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
	f.Start()
	a.fleetBelow = true
	if a.focused() != focusFleet {
		a.drill = append(a.drill, focusFleet)
	}
	rows, changed := f.Snapshot()
	a.fleet.set(rows)
	if a.fleetWaiting {
		return nil
	}
	a.fleetWaiting = true
	return waitFleet(changed)
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

// fleetPoll polls every cluster again now.
func (a *App) fleetPoll(tea.KeyMsg) tea.Cmd {
	a.opt.Fleet.PollNow()
	a.say("polling every cluster again", false)
	return nil
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

// fleetStatusBar is the status bar with no cluster open: what the fleet
// screen costs the clusters, and the read-only badge.
func (a *App) fleetStatusBar() string {
	st := a.env.st
	segs := []segment{{text: "no cluster open", p: st.strong},
		{text: "each cluster polled every " + model.Duration(a.fleet.interval) + ": a session and one read of its locks", p: st.muted, drop: 1}}
	if a.opt.ReadOnly {
		segs = append(segs, segment{text: " READ-ONLY ", p: st.badgeRO})
	}
	return joinSegments(segs, a.width, st.muted.s(" │ "))
}
