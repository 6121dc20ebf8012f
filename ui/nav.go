package ui

import tea "github.com/charmbracelet/bubbletea"

// Moving between screens: the tabs, drilling into a lock, and opening
// the tree.

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
