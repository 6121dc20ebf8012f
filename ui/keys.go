package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyMap holds every key binding, with the help text bubbles/help shows.
// Code matches keys against these, never raw strings. Which bindings a
// key press can reach is decided by the maps below (screenKeys and the
// overlays'), one per screen and mode, so that two bindings never compete
// for a key: TestKeyMapsHaveNoCollisions checks every screen in every mode.
//
// Operations that change ZooKeeper (acquire, release, force-release,
// revoke, fence) are disabled in read-only mode and say why when pressed
// (see operator.guardWrite); the destructive ones act only through a dialog
// that an explicit y confirms.
type keyMap struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	// Move, Scroll and Screens stand for several keys in the one-line help.
	Move, Scroll, Screens key.Binding

	Open, Back                              key.Binding
	NextScreen, PrevScreen                  key.Binding
	ScreenLocks, ScreenSessions, ScreenLogs key.Binding

	Filter, Sort, Problems, FullNode, InfoUp, InfoDown, Hex, Reread key.Binding
	// The tree screen (tree.go): open it, go to the parent, a child's node.
	Tree, Parent, NodeInfo key.Binding
	// Copying the selection's path, session id or client address (copy.go).
	CopyPath, CopySession, CopyClient key.Binding
	// Mark tells of a lock's grants and releases (notify.go).
	Mark key.Binding
	// Repoll polls every cluster of the fleet screen again (fleet.go).
	Repoll key.Binding

	Help, Cost, Quit, ForceQuit key.Binding
	// Command opens the command bar (goto.go); Complete completes in it.
	Command, Complete key.Binding

	// Operations on ZooKeeper (operate*.go).
	Acquire, ReleaseOwn, ForceRelease, Revoke, Fence key.Binding
	// In the operations' dialogs: a mode to acquire in, a fencing
	// candidate to toggle, a number.
	ModeExclusive, ModeRead, ModeWrite, ModeLease, Toggle, Digit key.Binding

	// The demo's controls (demo.go).
	DemoAdd, DemoKill, DemoFreeze, DemoLoseReply key.Binding
	// DemoSwitch switches between the fair lock and the naive one.
	DemoSwitch key.Binding

	// A replay's time cursor (replay.go).
	PlayPause, PrevChange, NextChange, PrevGrant, NextGrant, JumpTime, Slower, Faster key.Binding
	// History leaves the live UI for a replay of the history its caller
	// keeps (Options.OpenHistory, under zklocks serve).
	History key.Binding
	// The timeline screen (timeline.go).
	ScreenTimeline, ZoomIn, ZoomOut, Busiest key.Binding

	// In a prompt: keeping or dropping what was typed.
	Accept, Cancel key.Binding
	// In a prompt's line editor (editor.go).
	Erase, EraseNext, EraseWord, EraseToStart, CursorLeft, CursorRight, LineStart, LineEnd key.Binding
	// In a confirmation dialog: only Yes confirms. Reject, in the
	// approval dialog, rejects a request.
	Yes, Reject key.Binding

	mode keyMode
}

// keyMode is what, beside the screen, decides which bindings exist.
type keyMode struct {
	// demo binds the demo's controls; naive says the demo runs the naive
	// lock, which N switches from.
	demo, naive bool
	// replay binds the time cursor; space then plays rather than pages.
	replay bool
	// operate enables the operations in the help; when false (read-only,
	// or no actions) their keys still answer, to say why they are disabled.
	operate bool
	// fleetOnly: no cluster is open, only the fleet screen.
	fleetOnly bool
	// history binds History: the live UI's caller keeps a history.
	history bool
}

func newKeyMap(m keyMode) keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	pageDown := []string{"pgdown", "ctrl+f", " "}
	if m.replay {
		pageDown = pageDown[:2]
	}
	k := keyMap{
		mode:     m,
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup/ctrl+b", "page up"),
		PageDown: b(pageDown, "pgdn/ctrl+f", "page down"),
		HalfUp:   b([]string{"ctrl+u"}, "ctrl+u", "half page up"),
		HalfDown: b([]string{"ctrl+d"}, "ctrl+d", "half page down"),
		Top:      b([]string{"home", "g"}, "g/home", "top"),
		Move:     b([]string{"up", "down", "k", "j"}, "↑↓/jk", "move"),
		Scroll:   b([]string{"up", "down", "k", "j"}, "↑↓/jk", "scroll"),
		Screens:  b([]string{"tab", "1", "2", "3", "4"}, "tab/1-4", "screens"),
		Bottom:   b([]string{"end", "G"}, "G/end", "bottom"),

		Open:           b([]string{"enter"}, "enter", "open"),
		Back:           b([]string{"esc", "backspace"}, "esc", "back"),
		NextScreen:     b([]string{"tab"}, "tab", "next screen"),
		PrevScreen:     b([]string{"shift+tab"}, "shift+tab", "previous screen"),
		ScreenLocks:    b([]string{"1"}, "1", "locks"),
		ScreenSessions: b([]string{"2"}, "2", "sessions"),
		ScreenLogs:     b([]string{"3"}, "3", "events"),
		ScreenTimeline: b([]string{"4"}, "4", "timeline"),

		Filter:   b([]string{"/"}, "/", "filter"),
		Sort:     b([]string{"s"}, "s", "sort"),
		Problems: b([]string{"p"}, "p", "problems only"),
		Tree:     b([]string{"T"}, "T", "tree"),
		Parent:   b([]string{"left", "h"}, "←/h", "parent"),
		NodeInfo: b([]string{"i"}, "i", "node"),

		CopyPath:    b([]string{"y"}, "y", "copy path"),
		CopySession: b([]string{"Y"}, "Y", "copy session"),
		CopyClient:  b([]string{"C"}, "C", "copy client"),
		Mark:        b([]string{"m"}, "m", "mark: notify"),
		Repoll:      b([]string{"r"}, "r", "poll again"),
		FullNode:    b([]string{"f"}, "f", "full names"),
		InfoUp:      b([]string{"K"}, "K", "info up"),
		InfoDown:    b([]string{"J"}, "J", "info down"),
		Hex:         b([]string{"x"}, "x", "hex/text"),
		Reread:      b([]string{"r"}, "r", "read node again"),
		ZoomIn:      b([]string{"+", "="}, "+", "zoom in"),
		ZoomOut:     b([]string{"-", "_"}, "-", "zoom out"),
		Busiest:     b([]string{"b"}, "b", "busiest/selected"),

		Help:      b([]string{"?"}, "?", "help"),
		Cost:      b([]string{"c"}, "c", "cost to servers"),
		Quit:      b([]string{"q"}, "q", "quit"),
		Command:   b([]string{":"}, ":", "go to"),
		Complete:  b([]string{"tab"}, "tab", "complete"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),

		Accept: b([]string{"enter"}, "enter", "keep filter"),
		Cancel: b([]string{"esc"}, "esc", "clear filter"),

		Erase:        b([]string{"backspace", "ctrl+h"}, "backspace", "erase"),
		EraseNext:    b([]string{"delete"}, "delete", "erase under the cursor"),
		EraseWord:    b([]string{"ctrl+w", "alt+backspace"}, "ctrl+w", "erase a word"),
		EraseToStart: b([]string{"ctrl+u"}, "ctrl+u", "erase to the start"),
		CursorLeft:   b([]string{"left"}, "←", "cursor left"),
		CursorRight:  b([]string{"right"}, "→", "cursor right"),
		LineStart:    b([]string{"home", "ctrl+a"}, "home", "line start"),
		LineEnd:      b([]string{"end", "ctrl+e"}, "end", "line end"),

		Yes:    b([]string{"y", "Y"}, "y", "yes"),
		Reject: b([]string{"n", "N"}, "n", "reject"),

		Acquire:       b([]string{"a"}, "a", "acquire"),
		ReleaseOwn:    b([]string{"r"}, "r", "release ours (lists)"),
		ForceRelease:  b([]string{"D"}, "D", "force-release"),
		Revoke:        b([]string{"v"}, "v", "revoke"),
		Fence:         b([]string{"F"}, "F", "fence"),
		ModeExclusive: b([]string{"e"}, "e", "exclusive"),
		ModeRead:      b([]string{"r"}, "r", "read"),
		ModeWrite:     b([]string{"w"}, "w", "write"),
		ModeLease:     b([]string{"l"}, "l", "lease"),
		Toggle:        b([]string{" "}, "space", "toggle"),
		Digit:         b([]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, "0-9", "number"),

		DemoAdd:       b([]string{"+"}, "+", "add contender"),
		DemoKill:      b([]string{"X"}, "X", "kill"),
		DemoFreeze:    b([]string{"Z"}, "Z", "hang"),
		DemoLoseReply: b([]string{"L"}, "L", "lose reply"),
		DemoSwitch:    b([]string{"N"}, "N", map[bool]string{false: "herd (naive lock)", true: "fair lock"}[m.naive]),

		History:    b([]string{"R"}, "R", "replay the last hour"),
		PlayPause:  b([]string{" "}, "space", "play/pause"),
		PrevChange: b([]string{"["}, "[", "previous change"),
		NextChange: b([]string{"]"}, "]", "next change"),
		PrevGrant:  b([]string{"{"}, "{", "previous grant (lock)"),
		NextGrant:  b([]string{"}"}, "}", "next grant (lock)"),
		JumpTime:   b([]string{"t"}, "t", "go to a time"),
		Slower:     b([]string{"<"}, "<", "slower"),
		Faster:     b([]string{">"}, ">", "faster"),
	}
	for _, op := range k.operations() {
		op.SetEnabled(m.operate)
	}
	return k
}

// operations are the bindings that change ZooKeeper.
func (k *keyMap) operations() []*key.Binding {
	return []*key.Binding{&k.Acquire, &k.ReleaseOwn, &k.ForceRelease, &k.Revoke, &k.Fence}
}

// screenKeys is the key map of screen f: its pane's own keys, going
// between screens, the help, and the demo's, the replay's and the
// operations' keys where the mode and the screen have them.
func (k *keyMap) screenKeys(f focus) keySet {
	if f == focusFleet {
		return k.fleetKeys()
	}
	var s keySet
	if f != focusTimeline {
		s.add(colMove, nil, k.moves()...)
	}
	if f != focusTimeline && f != focusNode {
		s.add(colScreens, nil, &k.Open)
	}
	if f == focusDetail || f == focusNode || f == focusTree {
		s.add(colScreens, (*App).back, &k.Back)
	} else {
		s.add(colScreens, (*App).backOnTab, &k.Back)
	}
	k.addGoing(&s, true)
	switch f {
	case focusLocks:
		s.add(colScreen, nil, &k.Filter, &k.Sort, &k.Problems)
	case focusSessions, focusEvents:
		s.add(colScreen, nil, &k.Filter)
	case focusDetail:
		s.add(colScreen, nil, &k.FullNode, &k.InfoDown, &k.InfoUp)
	case focusNode:
		s.add(colScreen, nil, &k.Hex, &k.Reread)
	case focusTimeline:
		s.add(colScreen, nil, &k.ZoomIn, &k.ZoomOut, &k.Busiest)
	case focusTree:
		s.add(colScreen, nil, &k.Parent, &k.NodeInfo)
	}
	if f != focusTree {
		s.add(colScreens, (*App).openTree, &k.Tree)
	}
	if f != focusTimeline {
		s.add(colScreen, copyKey(copyPath), &k.CopyPath)
		s.add(colScreen, copyKey(copySession), &k.CopySession)
		s.add(colScreen, copyKey(copyClient), &k.CopyClient)
	}
	s.add(colScreen, showing(newHelp), &k.Help)
	s.add(colScreen, showing(newCost), &k.Cost)
	if k.mode.demo {
		// On the timeline, + zooms in.
		if f != focusTimeline {
			s.add(colDemo, demoAdd, &k.DemoAdd)
		}
		s.add(colDemo, demoKill, &k.DemoKill)
		s.add(colDemo, demoHang, &k.DemoFreeze)
		s.add(colDemo, demoLoseReply, &k.DemoLoseReply)
		s.add(colDemo, demoSwitch, &k.DemoSwitch)
	}
	if k.mode.history && !k.mode.replay {
		s.add(colScreens, (*App).openHistory, &k.History)
	}
	if k.mode.replay {
		s.add(colReplay, replayPlay, &k.PlayPause)
		s.add(colReplay, replayPrevChange, &k.PrevChange)
		s.add(colReplay, replayNextChange, &k.NextChange)
		s.add(colReplay, replayGrant(false), &k.PrevGrant)
		s.add(colReplay, replayGrant(true), &k.NextGrant)
		s.add(colReplay, replayJump, &k.JumpTime)
		s.add(colReplay, replaySpeed(-1), &k.Slower)
		s.add(colReplay, replaySpeed(+1), &k.Faster)
	}
	if f == focusLocks || f == focusDetail {
		s.add(colScreen, (*App).toggleMark, &k.Mark)
		s.add(colOperate, operateCmd((*operator).askAcquire), &k.Acquire)
		s.add(colOperate, func(a *App, _ tea.KeyMsg) tea.Cmd { return a.op.releaseOwn() }, &k.ReleaseOwn)
		s.add(colOperate, operateCmd((*operator).askForceRelease), &k.ForceRelease)
		s.add(colOperate, operateCmd((*operator).askRevoke), &k.Revoke)
		s.add(colOperate, operateCmd((*operator).askFence), &k.Fence)
	}
	s.short = k.short(f)
	return s
}

// short is the one-line help of screen f: the keys most often needed
// there, or in a demo its controls, or in a replay its time cursor (the
// help overlay lists the rest). TestShortHelpKeysWork checks that each
// of its keys does something on f.
func (k *keyMap) short(f focus) []key.Binding {
	switch {
	case k.mode.replay:
		bs := []key.Binding{k.PlayPause, k.PrevChange, k.NextChange, k.PrevGrant, k.NextGrant, k.JumpTime, k.Faster}
		if f == focusTimeline {
			bs = append(bs, k.ZoomIn, k.ZoomOut)
		}
		return append(bs, k.Help, k.Quit)
	case f == focusTimeline:
		return []key.Binding{k.ZoomIn, k.ZoomOut, k.Busiest, k.Screens, k.Help, k.Quit}
	case k.mode.demo:
		sw := k.DemoSwitch
		sw.SetHelp("N", map[bool]string{false: "herd", true: "fair"}[k.mode.naive])
		return []key.Binding{k.DemoAdd, k.DemoKill, k.DemoFreeze, k.DemoLoseReply, sw, k.Help, k.Quit}
	case f == focusDetail:
		return []key.Binding{k.Move, k.Open, k.FullNode, k.Back, k.Help, k.Quit, k.Acquire, k.ReleaseOwn,
			k.ForceRelease, k.Fence}
	case f == focusNode:
		return []key.Binding{k.Scroll, k.Hex, k.Reread, k.Back, k.Help, k.Quit}
	case f == focusTree:
		return []key.Binding{k.Move, k.Open, k.Parent, k.NodeInfo, k.Back, k.Help, k.Quit}
	case f == focusFleet:
		return k.fleetKeys().short
	case f == focusSessions, f == focusEvents:
		return []key.Binding{k.Move, k.Open, k.Filter, k.Screens, k.Help, k.Quit}
	}
	return []key.Binding{k.Move, k.Open, k.Filter, k.Sort, k.Screens, k.Help, k.Quit, k.Acquire, k.ReleaseOwn}
}

// fleetKeys is the fleet screen's key map: moving, opening a cluster,
// polling again, and, when a cluster is open, its screens.
func (k *keyMap) fleetKeys() keySet {
	var s keySet
	s.add(colMove, nil, k.moves()...)
	s.add(colScreens, (*App).fleetOpen, &k.Open)
	s.add(colScreens, (*App).fleetBack, &k.Back)
	k.addGoing(&s, !k.mode.fleetOnly)
	s.add(colScreen, nil, &k.Repoll)
	s.add(colScreen, showing(newHelp), &k.Help)
	s.short = []key.Binding{k.Move, k.Open, k.Back, k.Repoll, k.Help, k.Quit}
	if k.mode.fleetOnly {
		s.short = []key.Binding{k.Move, k.Open, k.Repoll, k.Help, k.Quit}
	}
	return s
}

// moves are the bindings that move a cursor or scroll (cursor.go).
func (k *keyMap) moves() []*key.Binding {
	return []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.HalfUp, &k.HalfDown, &k.Top, &k.Bottom}
}

// addGoing adds to s going to another screen of the cluster, when tabs
// (there are none on the fleet screen with no cluster open), the command
// bar and quitting.
func (k *keyMap) addGoing(s *keySet, tabs bool) {
	if tabs {
		s.add(colScreens, switchTab(+1), &k.NextScreen)
		s.add(colScreens, switchTab(-1), &k.PrevScreen)
		s.add(colScreens, setTab(focusLocks), &k.ScreenLocks)
		s.add(colScreens, setTab(focusSessions), &k.ScreenSessions)
		s.add(colScreens, setTab(focusEvents), &k.ScreenLogs)
		s.add(colScreens, setTab(focusTimeline), &k.ScreenTimeline)
	}
	s.add(colScreens, showing(newCommandBar), &k.Command)
	s.add(colScreens, quit, &k.Quit)
}

// helpKeys is the key map of the help h: it scrolls, closes or quits;
// every other key does nothing.
func (k *keyMap) helpKeys(h *helpOverlay) keySet {
	var s keySet
	scroll := func(_ *App, msg tea.KeyMsg) tea.Cmd { h.move(*k, msg); return nil }
	s.add(colMove, scroll, k.moves()...)
	s.add(colScreens, closing(&h.closed), &k.Help, &k.Back)
	s.add(colScreens, quit, &k.Quit)
	return s
}

// costKeys is the key map of the cost screen c: it closes or quits.
func (k *keyMap) costKeys(c *costOverlay) keySet {
	var s keySet
	s.add(colScreens, closing(&c.closed), &k.Cost, &k.Back)
	s.add(colScreens, quit, &k.Quit)
	return s
}

// The maps below are those of the prompts and dialogs, which take every
// key while open (filter.update, the dialogs' update): they are listed
// here so that their keys are checked for collisions too; a key none of
// them binds is typed (in a prompt) or cancels (in a dialog).

// filterKeys are the filter prompt's keys.
func (k *keyMap) filterKeys() []key.Binding {
	return append([]key.Binding{k.Accept, k.Cancel, k.ForceQuit}, k.editKeys()...)
}

// editKeys are the line editor's keys (editor.go), in every prompt but the
// lease count, which takes digits and backspace only.
func (k *keyMap) editKeys() []key.Binding {
	return []key.Binding{k.Erase, k.EraseNext, k.EraseWord, k.EraseToStart, k.CursorLeft, k.CursorRight, k.LineStart,
		k.LineEnd}
}

// dialogKeys are each dialog's keys, by dialog.
func (k *keyMap) dialogKeys() map[string][]key.Binding {
	return map[string][]key.Binding{
		"confirm":        {k.Yes, k.ForceQuit},
		"force-release":  {k.Yes, k.Revoke, k.ForceQuit},
		"acquire":        {k.ModeExclusive, k.ModeRead, k.ModeWrite, k.ModeLease, k.Accept, k.ForceQuit},
		"acquire leases": {k.Digit, k.Erase, k.Yes, k.ForceQuit},
		"fence":          {k.Up, k.Down, k.Toggle, k.Digit, k.Yes, k.ForceQuit},
		"time":           append([]key.Binding{k.Accept, k.Cancel, k.ForceQuit}, k.editKeys()...),
		"command":        append([]key.Binding{k.Accept, k.Cancel, k.Complete, k.ForceQuit}, k.editKeys()...),
	}
}

func quit(*App, tea.KeyMsg) tea.Cmd { return tea.Quit }

// operateCmd is an operation that asks (through a dialog) before it acts
// on the focused screen's selection, and reads what the dialog is to show
// (the ACL, whether the node is still there) once it is open.
func operateCmd(ask func(op *operator, sel selection) tea.Cmd) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd { return ask(&a.op, a.selection()) }
}

func switchTab(step int) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd { a.switchTab(step); return nil }
}

func setTab(f focus) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd { a.setTab(f); return nil }
}
