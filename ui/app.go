// Package ui is zklocks' terminal interface, built on Bubble Tea: a root
// App that owns the operator's model.State, moved forward only by
// State.Apply as watcher events arrive (under zklocks serve, the latest
// State a shared watcher publishes, which the App reads and never
// changes), and one concrete pane per screen (locks, lock detail, node,
// sessions, events, timeline, tree, fleet). Only the focused pane gets
// keys, or the one overlay open over it (a dialog, the command bar, the
// help, the cost screen); sizes flow down from the App. The node and
// tree panes read ZooKeeper themselves, on demand, and the fleet pane
// follows its poller; the App says which screen is shown. Everything
// from ZooKeeper is escaped (model.Printable, model.ShortNode) before it
// is drawn.
package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// The smallest terminal the layout works in; smaller ones get a message.
const (
	minWidth  = 32
	minHeight = 7
)

// env is what every pane reads: the state the App owns, the styles and
// keys, and the clock. Panes never change it; the App and its operator
// do, as each field says.
type env struct {
	// state is what the App shows: State.Apply moves it on as events
	// arrive (app.go, and a replay played forward), and a replay's jump
	// or a shared watcher's newer picture puts another in its place
	// (replay.go, shared.go).
	state *model.State
	st    *styles
	keys  *keyMap
	// now is the clock; the App holds it still while it draws a frame
	// (chrome.go), so that one instant is shown throughout.
	now func() time.Time
	loc *time.Location
	// own is the lock the operator took from the UI; nil when none. The
	// operator sets it as it starts acquiring (operate_own.go) and clears
	// it when the acquisition fails or is given up (operate_own.go) and
	// when the lock is given back, by r or at exit (operate_release.go).
	// A lock that is lost stays, marked lost, until it is given back;
	// the panes show it.
	own *ownLock
	// marked are the locks the operator is told of when granted or
	// released, by path: the App marks and unmarks them (notify.go).
	marked map[string]bool
	// context is the config file's context the UI is on; "" for none.
	context string
	// demoLine says, in the demo, what its fair and naive locks mean,
	// the one running first: one line at 80 columns.
	demoLine string
}

// App is the root Bubble Tea model. Use it through a pointer.
type App struct {
	opt  Options
	env  *env
	help help.Model
	gen  int // bumped each time the state changes

	width, height int
	tab           focus
	drill         []focus            // detail, then node, above the tab
	keymaps       [focusCount]keySet // each screen's key map, made once
	over          overlay            // nil unless one is open
	flash         flash
	closed        bool // the watcher's events ended
	demoStats     DemoStats
	op            operator
	replay        *replayer // nil unless replaying
	pendingOpen   string    // Options.Open until opened
	startCmd      tea.Cmd   // what opening it at start asks, for Init

	locks    locksPane
	sessions sessionsPane
	events   eventsPane
	detail   detailPane
	node     nodePane
	timeline timelinePane
	tree     treePane
	fleet    fleetPane
	// fleetBelow: esc on a screen with nothing to clear goes to the fleet
	// screen, where this cluster was opened from or which was looked at.
	fleetBelow bool
}

// flash is a message shown in place of the key help for a while; an
// error only on the screen it was said on (see dropLeftError).
type flash struct {
	text  string
	isErr bool
	at    time.Time
	// on and depth are the screen it was said on and how far drilled in.
	on    focus
	depth int
}

const flashFor = 10 * time.Second

// New returns an App; the program should run it with the alternate screen.
func New(opt Options) *App {
	var replay *replayer
	if opt.Tape != nil {
		// Read-only by construction: nothing to write with, nothing to read.
		replay = newReplayer(opt.Tape)
		opt.Events, opt.ReadNode, opt.ReadChildren, opt.Actions, opt.ReadOnly = nil, nil, nil, nil, true
		opt.State = opt.Tape.StateAt(replay.n)
		opt.Now = func() time.Time { return replay.at }
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Location == nil {
		opt.Location = time.Local
	}
	if opt.Shared != nil {
		opt.Events, opt.State = nil, opt.Shared.State()
	}
	if opt.State == nil {
		opt.State = model.NewState()
	}
	if opt.NodeTimeout <= 0 {
		opt.NodeTimeout = 10 * time.Second
	}
	st := newStyles(opt.Renderer, opt.Profile)
	keys := newKeyMap(keyMode{demo: opt.Demo != nil, naive: opt.Demo != nil && opt.Demo.Naive(), replay: replay != nil,
		operate: opt.Actions != nil && !opt.ReadOnly, fleetOnly: opt.FleetOnly, history: opt.OpenHistory != nil && replay == nil})
	e := &env{state: opt.State, st: &st, keys: &keys, now: opt.Now, loc: opt.Location, marked: map[string]bool{},
		context: opt.Context}
	if opt.Demo != nil {
		e.demoLine = "fair (this lock): a release wakes only the next waiter · naive: wakes them all"
		if opt.Demo.Naive() {
			e.demoLine = "naive (this lock): a release wakes every waiter to race · fair: only the next"
		}
	}
	h := help.New()
	h.Styles = st.help
	a := &App{opt: opt, env: e, help: h, gen: 1, replay: replay, fleetBelow: opt.FromFleet && opt.Fleet != nil,
		locks: newLocksPane(e), sessions: newSessionsPane(e), events: newEventsPane(e), detail: newDetailPane(e),
		timeline: newTimelinePane(e), node: newNodePane(e, opt.ReadNode, opt.NodeTimeout),
		tree: newTreePane(e, opt.ReadChildren, opt.NodeTimeout), fleet: newFleetPane(e, opt.Fleet, opt.Context, opt.FleetOnly)}
	a.locks.order, a.locks.sortChanged = orderIndex(opt.Sort), opt.SortChanged
	a.op = operator{env: e, actions: opt.Actions, readOnly: opt.ReadOnly, readOnlyWhy: opt.ReadOnlyWhy, host: a}
	for f := range focusCount {
		a.keymaps[f] = keys.screenKeys(f)
	}
	a.pendingOpen = opt.Open
	a.refresh()
	a.startCmd = a.openPending()
	if opt.FleetOnly && opt.Fleet != nil {
		a.drill = []focus{focusFleet}
	}
	if opt.Message != "" {
		a.say(opt.Message, true)
	}
	if w := opt.TapeWarnings; replay != nil && len(w) > 0 {
		more := ""
		if len(w) > 1 {
			more = " (1 of " + itoa(len(w)) + " warnings, all printed again on quitting)"
		}
		a.say(w[0]+more, true)
	}
	return a
}

// Init starts reading the watcher's events and the clock that ages what is
// shown.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{waitForEvents(a.opt.Events), waitForShared(a.opt.Shared), tick(), a.startCmd, waitForNotice(a.opt.Approvals)}
	if d := a.opt.Demo; d != nil {
		cmds = append(cmds, openLock(d.LockPath(), ""), readDemoStats(d))
	}
	return tea.Batch(append(cmds, a.fleet.wait())...)
}

// Update handles one message.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer a.dropLeftError()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.handleResize(msg.Width, msg.Height)
	case tea.KeyMsg:
		return a, a.handleKey(msg)
	case tea.MouseMsg:
		return a, a.toFocused(msg)
	case watchEventsMsg:
		return a, a.handleEvents(msg)
	case sharedStateMsg:
		return a, a.handleShared(msg)
	case approvalNoticeMsg:
		return a, a.handleNotice(msg)
	case approveDecidedMsg:
		a.approveDecided(msg)
	case openApproveMsg:
		a.openApprove()
	case tickMsg:
		// A shared picture is aged by whoever keeps it.
		if a.opt.Shared == nil && a.env.state.AgeTo(a.env.now()) {
			a.gen++
			a.refresh()
		}
		if a.opt.Demo != nil {
			return a, tea.Batch(tick(), readDemoStats(a.opt.Demo))
		}
		return a, tick()
	case demoStatsMsg:
		a.demoStats = msg.stats
	case demoDoneMsg:
		a.demoDone(msg)
	case openLockMsg:
		a.openLock(msg)
	case openNodeMsg:
		a.drill = append(a.drill, focusNode)
		return a, a.node.open(msg.participant)
	case nodeReadMsg:
		if err := a.node.loaded(msg); err != nil {
			a.say(err.Error(), true)
		}
	case childrenReadMsg:
		a.tree.listed(msg)
	case acquireChosenMsg, acquireProgressMsg, acquireDoneMsg, ownLostMsg, ownRevokedMsg, ownReleasedMsg, actionDoneMsg:
		return a, a.operated(msg)
	case flashMsg:
		a.say(msg.text, msg.isErr)
	case accessReadMsg:
		a.showAccess(msg)
	case fleetChangedMsg:
		return a, a.fleet.changed()
	case replayTickMsg:
		return a, a.replayFrameTick(msg)
	case replaySeekMsg:
		a.seek(a.replay.atTime(msg.at))
	}
	return a, nil
}

// handleEvents applies a batch of watcher events, then asks for more.
func (a *App) handleEvents(msg watchEventsMsg) tea.Cmd {
	logged := a.env.state.Logged
	for _, ev := range msg.events {
		a.env.state.Apply(ev)
		if ev.Kind == zkwatch.EventError && ev.Err != nil {
			a.say(ev.Err.Error(), true)
		}
	}
	var opened tea.Cmd
	if len(msg.events) > 0 {
		a.checkDialog()
		a.op.explainRefusals()
		a.gen++
		a.refresh()
		opened = a.openPending()
	}
	bell := a.notify(logged)
	return a.afterPicture(msg.closed, bell, opened, waitForEvents(a.opt.Events))
}

// afterPicture is what follows a newer picture, from the App's own
// watcher or a shared one: the bell and the lock opened, then the wait
// for the next, unless the source has closed: then that is said instead.
func (a *App) afterPicture(closed bool, bell, opened, wait tea.Cmd) tea.Cmd {
	if closed {
		a.closed = true
		a.say("the watcher stopped: the picture is no longer updated", true)
		return tea.Batch(bell, opened)
	}
	return tea.Batch(bell, opened, wait)
}

// say shows a message in the status line; errors are escaped like
// everything else that may quote ZooKeeper, and read without the package
// prefixes Go errors carry.
func (a *App) say(text string, isErr bool) {
	a.flash = flash{text: model.Printable(model.Plain(text)), isErr: isErr, at: a.env.now(), on: a.focused(), depth: len(a.drill)}
}

// flashShown is the message in the status line, if one is shown: said
// less than flashFor ago.
func (a *App) flashShown() (flash, bool) {
	f := a.flash
	return f, f.text != "" && a.env.now().Sub(f.at) < flashFor
}

// dropLeftError takes away an error said on a screen the operator has
// left: under another screen it would read as that one's. (A message
// that is news, an action's outcome, stays for its while.)
func (a *App) dropLeftError() {
	if f := a.flash; f.isErr && (f.on != a.focused() || f.depth != len(a.drill)) {
		a.flash = flash{}
	}
}

// handleKey routes a key: quitting first, then an open overlay (a
// dialog, the command bar, the help or cost screen), a pane's filter
// prompt, and last the focused screen's key map (keys.go), which says
// which binding a key is and what it does.
func (a *App) handleKey(msg tea.KeyMsg) tea.Cmd {
	// Keys typed faster than they are read (over a slow SSH link, or sent
	// by tmux) come as one message: take them one at a time.
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, a.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Batch(cmds...)
	}
	switch {
	case pressed(msg, a.env.keys.ForceQuit):
		return tea.Quit
	case a.over != nil:
		done, cmd := a.over.update(a, msg)
		if done {
			a.over = nil
		}
		return cmd
	case a.typing():
		return a.toFocused(msg)
	}
	return a.dispatch(a.keys(), msg)
}

// keys is the focused screen's key map.
func (a *App) keys() keySet { return a.keymaps[a.focused()] }

// dispatch runs what msg's binding in s does; a key s does not bind does
// nothing.
func (a *App) dispatch(s keySet, msg tea.KeyMsg) tea.Cmd {
	b, ok := s.find(msg)
	switch {
	case !ok:
		return nil
	case b.do == nil:
		return a.toFocused(msg)
	}
	return b.do(a, msg)
}

// back leaves a drilled-in screen (a lock's detail, a node) for the one
// below it.
func (a *App) back(tea.KeyMsg) tea.Cmd {
	if len(a.drill) > 0 {
		a.drill = a.drill[:len(a.drill)-1]
		a.refresh()
	}
	return nil
}

// backOnTab clears the message in the status line, and the screen's
// filter if it has one.
func (a *App) backOnTab(msg tea.KeyMsg) tea.Cmd {
	if _, shown := a.flashShown(); !shown && a.fleetBelow && !a.tabFiltered() {
		return a.openFleet()
	}
	if a.flash.text != "" {
		a.flash = flash{}
	}
	return a.toFocused(msg)
}
