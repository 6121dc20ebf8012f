package ui

import tea "github.com/charmbracelet/bubbletea"

// Moving between screens: the tabs, and drilling into a lock and a node.

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

// openNode drills into a participant's node and starts reading it.
func (a *App) openNode(msg openNodeMsg) tea.Cmd {
	a.nodes++
	a.node.open(msg.participant, a.nodes, a.opt.ReadNode != nil)
	a.drill = append(a.drill, focusNode)
	a.node.refresh(a.gen)
	if a.opt.ReadNode == nil {
		return nil
	}
	return readNode(a.opt.ReadNode, a.nodes, msg.participant.Path, a.opt.NodeTimeout)
}

// rereadNode reads the node on screen again.
func (a *App) rereadNode() tea.Cmd {
	if a.opt.ReadNode == nil || a.focused() != focusNode {
		return nil
	}
	a.nodes++
	a.node.rereading()
	return readNode(a.opt.ReadNode, a.nodes, a.node.part.Path, a.opt.NodeTimeout)
}

func (a *App) nodeRead(msg nodeReadMsg) {
	if msg.id != a.nodes {
		return // an answer for a node no longer shown
	}
	a.node.loaded(msg)
	if msg.err != nil {
		a.say(msg.err.Error(), true)
	}
}
