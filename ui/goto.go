package ui

import (
	"path"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// Going where the problem is: a path given at start (Options.Open) and the
// command bar (:), which jumps to a lock by its path or to a screen by its
// name, as k9s's does.

// screenCommands are the command bar's screen names.
var screenCommands = map[string]focus{"locks": focusLocks, "sessions": focusSessions, "events": focusEvents,
	"timeline": focusTimeline}

// findLock returns the lock of s at p, or the lock a contender's node at
// p belongs to (with the node), and whether there is one.
func findLock(s *model.State, p string) (lock, node string, ok bool) {
	p = path.Clean(p)
	locks := s.Locks
	if _, ok := locks[p]; ok {
		return p, "", true
	}
	for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
		if l, ok := locks[d]; ok {
			for _, q := range l.Participants {
				if q.Path == p {
					return d, p, true
				}
			}
			return d, "", true
		}
	}
	return "", "", false
}

// openPending opens the lock asked for at start once it has been read;
// once every lock has been read and it is not one, it says so and opens
// the tree there, to show what is.
func (a *App) openPending() tea.Cmd {
	p := a.pendingOpen
	if p == "" {
		return nil
	}
	if lock, node, ok := findLock(a.env.state, p); ok {
		a.pendingOpen = ""
		a.openLock(openLockMsg{path: lock, node: node})
		return nil
	}
	if a.env.state.LastSync.IsZero() {
		return nil
	}
	a.pendingOpen = ""
	// Said on the tree, once it is open: a message stays with its screen.
	cmd := a.browse(p)
	a.say(p+": no lock there among the "+count(len(a.env.state.Locks), "lock", "locks")+
		" found under the roots; the tree shows what is there", true)
	return cmd
}

// runCommand goes where text says: a lock (by its path or a contender's),
// a screen (by a prefix of its name), or quits (q, quit).
func (a *App) runCommand(text string) tea.Cmd {
	switch {
	case text == "":
		return nil
	case text == "q" || text == "quit":
		return tea.Quit
	case text == "ctx" || strings.HasPrefix(text, "ctx "):
		return a.switchContext(strings.TrimSpace(strings.TrimPrefix(text, "ctx")))
	case strings.HasPrefix("fleet", strings.ToLower(text)) && len(text) >= 2:
		return a.openFleet()
	case text == "approve":
		return openApprove
	case a.opt.FleetOnly:
		a.say("no cluster is open: enter opens the one under the cursor, as :ctx NAME does", true)
		return nil
	case strings.HasPrefix(text, "/"):
		lock, node, ok := findLock(a.env.state, text)
		if !ok {
			// Not a lock: perhaps the lock is not where one thinks.
			return a.browse(text)
		}
		a.openLock(openLockMsg{path: lock, node: node})
		return nil
	}
	var names []string
	for name := range screenCommands {
		if strings.HasPrefix(name, strings.ToLower(text)) {
			names = append(names, name)
		}
	}
	if len(names) == 1 {
		a.setTab(screenCommands[names[0]])
		return nil
	}
	a.say(":"+text+" is neither a path (it starts with /) nor a screen (locks, sessions, events, timeline, fleet)", true)
	return nil
}

// openHistory leaves the live UI for its caller to replay the history it
// keeps (Options.OpenHistory). Not while the operator holds or waits for
// a lock of their own: leaving the UI gives it back.
func (a *App) openHistory(tea.KeyMsg) tea.Cmd {
	if a.env.own != nil {
		a.say("release your own lock first (r on the locks): leaving for the replay would give it back", true)
		return nil
	}
	a.opt.OpenHistory()
	return tea.Quit
}

// switchContext lists the contexts (name "") or switches to one: the UI
// quits, for the caller to connect to it as --context would.
func (a *App) switchContext(name string) tea.Cmd {
	o := a.opt
	list := strings.Join(o.Contexts, ", ")
	switch {
	case len(o.Contexts) == 0:
		a.say("no contexts: the config file defines none (see zklocks config --help)", true)
	case name == "":
		a.say("contexts: "+model.Printable(list)+" · :ctx NAME switches", false)
	case !slices.Contains(o.Contexts, name):
		a.say("no context "+model.Printable(name)+"; there are: "+model.Printable(list), true)
	case o.SwitchContext == nil:
		a.say("cannot switch context: "+o.NoSwitch, true)
	case name == o.Context:
		a.say("already on context "+model.Printable(name), false)
	default:
		o.SwitchContext(name)
		return tea.Quit
	}
	return nil
}
