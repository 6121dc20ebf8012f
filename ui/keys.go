package ui

import "github.com/charmbracelet/bubbles/key"

// keyMap holds every key binding, with the help text bubbles/help shows.
// Code matches keys with key.Matches against these, never raw strings.
//
// Operations that change ZooKeeper (acquire, release, force-release,
// revoke, fence) are disabled in read-only mode and say why when pressed
// (see operateKeys and App.guardWrite); the destructive ones act only
// through a dialog that an explicit y confirms.
type keyMap struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	// Move, Scroll and Screens stand for several keys in the one-line help.
	Move, Scroll, Screens key.Binding

	Open, Back                              key.Binding
	NextScreen, PrevScreen                  key.Binding
	ScreenLocks, ScreenSessions, ScreenLogs key.Binding

	Filter, Sort, FullNode, InfoUp, InfoDown, Hex, Reread key.Binding

	Help, Cost, Quit, ForceQuit key.Binding

	// Operations on ZooKeeper (see operateKeys).
	Acquire, ReleaseOwn, ForceRelease, Revoke, Fence key.Binding
	// In the operations' dialogs: a mode to acquire in, a fencing
	// candidate to toggle, a number.
	ModeExclusive, ModeRead, ModeWrite, ModeLease, Toggle, Digit key.Binding

	// The demo's controls, enabled in demo mode only (see demoKeys).
	DemoAdd, DemoKill, DemoFreeze, DemoLoseReply key.Binding

	// A replay's time cursor, enabled only when replaying (replay.go).
	PlayPause, PrevChange, NextChange, PrevGrant, NextGrant, JumpTime, Slower, Faster key.Binding
	// The timeline screen (timeline.go).
	ScreenTimeline, ZoomIn, ZoomOut, Busiest key.Binding

	// In the filter prompt.
	Accept, Cancel, Erase, EraseAll key.Binding
	// In a confirmation dialog: only Yes confirms.
	Yes key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup/ctrl+b", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f", " "}, "pgdn/ctrl+f", "page down"),
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

		Filter:   b([]string{"/"}, "/", "filter"),
		Sort:     b([]string{"s"}, "s", "sort"),
		FullNode: b([]string{"f"}, "f", "full names"),
		InfoUp:   b([]string{"K"}, "K", "info up"),
		InfoDown: b([]string{"J"}, "J", "info down"),
		Hex:      b([]string{"x"}, "x", "hex/text"),
		Reread:   b([]string{"r"}, "r", "read node again"),

		Help:      b([]string{"?"}, "?", "help"),
		Cost:      b([]string{"c"}, "c", "cost to servers"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),

		Accept:   b([]string{"enter"}, "enter", "keep filter"),
		Cancel:   b([]string{"esc"}, "esc", "clear filter"),
		Erase:    b([]string{"backspace", "ctrl+h"}, "backspace", "erase"),
		EraseAll: b([]string{"ctrl+u"}, "ctrl+u", "erase all"),

		Yes: b([]string{"y", "Y"}, "y", "yes"),

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
		DemoKill:      b([]string{"X"}, "X", "kill session"),
		DemoFreeze:    b([]string{"Z"}, "Z", "freeze"),
		DemoLoseReply: b([]string{"L"}, "L", "lose reply"),
	}
}

// short returns the one-line help for a pane; in demo mode, the demo's
// controls (the help overlay lists the rest).
func (k keyMap) short(f focus) []key.Binding {
	if k.PlayPause.Enabled() {
		return k.replayShort(f)
	}
	if f == focusTimeline {
		return k.timelineShort()
	}
	if k.DemoAdd.Enabled() {
		return []key.Binding{k.DemoAdd, k.DemoKill, k.DemoFreeze, k.DemoLoseReply, k.Help, k.Quit}
	}
	switch f {
	case focusDetail:
		return []key.Binding{k.Move, k.Open, k.FullNode, k.Back, k.Help, k.Quit, k.Acquire, k.ReleaseOwn, k.ForceRelease, k.Fence}
	case focusNode:
		return []key.Binding{k.Scroll, k.Hex, k.Reread, k.Back, k.Help, k.Quit}
	case focusSessions, focusEvents:
		return []key.Binding{k.Move, k.Open, k.Filter, k.Screens, k.Help, k.Quit}
	}
	return []key.Binding{k.Move, k.Open, k.Filter, k.Sort, k.Screens, k.Help, k.Quit, k.Acquire, k.ReleaseOwn}
}

// full returns the help overlay's columns.
func (k keyMap) full() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom},
		{k.Open, k.Back, k.NextScreen, k.PrevScreen, k.ScreenLocks, k.ScreenSessions, k.ScreenLogs, k.ScreenTimeline, k.Quit},
		{k.Filter, k.Sort, k.FullNode, k.InfoDown, k.InfoUp, k.Hex, k.Reread, k.ZoomIn, k.ZoomOut, k.Busiest, k.Help, k.Cost},
		{k.DemoAdd, k.DemoKill, k.DemoFreeze, k.DemoLoseReply},
		{k.PlayPause, k.PrevChange, k.NextChange, k.PrevGrant, k.NextGrant, k.JumpTime, k.Slower, k.Faster},
	}
}
