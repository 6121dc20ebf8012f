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

// copyable is what the focused screen has selected to copy: a path
// ("" for none) and a session (0 for none).
func (a *App) copyable() (p string, session int64) {
	switch a.focused() {
	case focusLocks:
		if r := a.locks.selected(); r != nil {
			p = r.path
		}
	case focusDetail:
		if q := a.detail.selected(); q != nil {
			p, session = q.Path, q.Session
		}
	case focusNode:
		p, session = a.node.part.Path, a.node.part.Session
		if d := a.node.detail; d != nil {
			session = d.Stat.EphemeralOwner
		}
	case focusSessions:
		if i := a.sessions.cur.idx; i < len(a.sessions.rows) {
			r := a.sessions.rows[i]
			session = r.session
			switch {
			case r.q != nil:
				p = r.q.Path
			case r.forced != nil:
				p = r.forced.node
			case r.lock != nil:
				p = r.lock.Path
			}
		}
	case focusEvents:
		if i := a.events.cur.idx; i < len(a.events.rows) {
			h := a.env.state.History[a.events.rows[i]]
			p, session = h.Lock, h.Session
			if h.Node != "" {
				p = h.Lock + "/" + h.Node
			}
		}
	case focusTree:
		if t := &a.tree; t.cur.idx < len(t.names) {
			p = strings.TrimSuffix(t.path, "/") + "/" + t.names[t.cur.idx]
		}
	}
	return p, session
}

// copyKey copies what the binding pressed names.
func copyKey(what copyWhat) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd { return a.copySelected(what) }
}

func (a *App) copySelected(what copyWhat) tea.Cmd {
	p, session := a.copyable()
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
