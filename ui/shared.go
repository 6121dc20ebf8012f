package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// Shared is a picture of a cluster that someone else keeps up to date:
// under zklocks serve, one watcher per cluster applies the events once,
// and every SSH session's App shows its latest state. The App never
// changes a State it gets from Shared, and reads nothing else of it.
type Shared interface {
	// State is the latest picture. A State once returned is never
	// changed again, so that an App can read it while the next is made.
	State() *model.State
	// Changed receives a value when a State newer than the last one
	// returned is there, and is closed when none will come any more.
	// Pictures that come faster than an App reads them are skipped: only
	// the latest is shown.
	Changed() <-chan struct{}
}

// sharedStateMsg carries the latest shared picture; closed says none will
// follow.
type sharedStateMsg struct {
	state  *model.State
	closed bool
}

// waitForShared waits until a newer shared picture is there. A nil Shared
// yields nothing.
func waitForShared(s Shared) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		_, ok := <-s.Changed()
		return sharedStateMsg{state: s.State(), closed: !ok}
	}
}

// handleShared shows a newer shared picture, as handleEvents shows the
// events it applies: the lists are rebuilt, a lock waiting to be opened
// is opened, marked locks are told of, and a new error is said.
func (a *App) handleShared(msg sharedStateMsg) tea.Cmd {
	prev := a.env.state
	if msg.state != nil && msg.state != prev {
		a.env.state = msg.state
		if err := lastError(msg.state); err != nil && err != lastError(prev) {
			a.say(err.Error(), true)
		}
		a.gen++
		a.refresh()
	}
	opened := a.openPending()
	bell := a.notify(prev.Logged)
	a.tellOperated(prev, a.env.state)
	return a.afterPicture(msg.closed, bell, opened, waitForShared(a.opt.Shared))
}

func lastError(s *model.State) error {
	if len(s.Errors) == 0 {
		return nil
	}
	return s.Errors[len(s.Errors)-1]
}
