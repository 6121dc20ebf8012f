package ui

import (
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// Copying what is selected (a path, a session id, a client's address) to
// the terminal's clipboard with OSC 52, which works over SSH and tmux
// (with set-clipboard on) when the terminal allows it. The program does
// not hear back, so the message says it asked, not that it worked.

// Copier puts text on the terminal's clipboard, as termenv's Output.Copy
// does with OSC 52.
type Copier func(text string)

// copyWhat names what the copy keys copy.
type copyWhat int

const (
	copyPath copyWhat = iota
	copySession
	copyClient
)

// What each screen has selected to copy: a path ("" for none) and a
// session (0 for none).

func (p *locksPane) copyable() (string, int64) {
	if r := p.selected(); r != nil {
		return r.path, 0
	}
	return "", 0
}

func (p *detailPane) copyable() (string, int64) {
	if q := p.selected(); q != nil {
		return q.Path, q.Session
	}
	return "", 0
}

// copyable is the node's owner as read when it has been, else as the
// lock's last read said.
func (p *nodePane) copyable() (string, int64) {
	if p.detail != nil {
		return p.part.Path, p.detail.Stat.EphemeralOwner
	}
	return p.part.Path, p.part.Session
}

// copyable is the row's session, and the node or lock of a row under one.
func (p *sessionsPane) copyable() (string, int64) {
	if p.cur.idx >= len(p.rows) {
		return "", 0
	}
	r := p.rows[p.cur.idx]
	switch {
	case r.q != nil:
		return r.q.Path, r.session
	case r.forced != nil:
		return r.forced.node, r.session
	case r.lock != nil:
		return r.lock.Path, r.session
	}
	return "", r.session
}

// copyable is the entry's node, or its lock when it names no node.
func (p *eventsPane) copyable() (string, int64) {
	if p.cur.idx >= len(p.rows) {
		return "", 0
	}
	h := p.env.state.History[p.rows[p.cur.idx]]
	if node := h.NodePath(); node != "" {
		return node, h.Session
	}
	return h.Lock, h.Session
}

func (p *treePane) copyable() (string, int64) {
	if p.cur.idx >= len(p.names) {
		return "", 0
	}
	return strings.TrimSuffix(p.path, "/") + "/" + p.names[p.cur.idx], 0
}

// The screens without a selection to copy: their keys do not copy.
func (p *timelinePane) copyable() (string, int64) { return "", 0 }
func (p *fleetPane) copyable() (string, int64)    { return "", 0 }

// copyKey copies what the binding pressed names.
func copyKey(what copyWhat) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd { return a.copySelected(what) }
}

// copySelected copies what of the focused screen's selection, and says
// whether it asked the terminal to.
func (a *App) copySelected(what copyWhat) tea.Cmd {
	p, session := a.pane(a.focused()).copyable()
	var text, name string
	switch what {
	case copyPath:
		text, name = p, "path"
	case copySession:
		name = "session id"
		if session != 0 {
			text = lockcore.SessionHex(session)
		}
	case copyClient:
		name = "client address"
		if session != 0 {
			text = a.env.state.Client(session).Addr
		}
	}
	switch {
	case a.opt.Copy == nil:
		a.say("copying is not available here", true)
	case text == "":
		a.say("nothing to copy: no "+name+" is selected here (or known for the selection)", true)
	case !printable(text):
		// Pasted into a shell, a control character would act.
		a.say("not copied: the "+name+" holds characters a terminal would act on: "+model.Printable(text), true)
	case a.opt.CopyBlocked != "":
		a.opt.Copy(text)
		a.say("asked the terminal to copy the "+name+" "+text+", but "+a.opt.CopyBlocked, true)
	default:
		a.opt.Copy(text)
		a.say("asked the terminal to copy the "+name+" "+text+" (OSC 52)", false)
	}
	return nil
}

// printable reports whether s is safe to paste: no control or format
// characters (such as a bidi override).
func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return model.Printable(s) == s
}

// CopyBlockedUnderTmux is Options.CopyBlocked for a UI inside tmux whose
// set-clipboard option is setClipboard ("on", "external" or "off", as
// `tmux show-options -gv set-clipboard` prints it): only "on" lets an
// application's OSC 52 through to the clipboard. "" when copying should
// work.
func CopyBlockedUnderTmux(setClipboard string) string {
	v := strings.TrimSpace(setClipboard)
	if v == "on" {
		return ""
	}
	if v == "" {
		v = "unknown"
	}
	return "tmux drops it (set-clipboard is " + model.Printable(v) + "): run tmux set -g set-clipboard on, " +
		"and add set -g set-clipboard on to ~/.tmux.conf"
}
