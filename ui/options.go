package ui

import (
	"context"
	"os"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// NodeReader reads one node's Stat, data and ACL on demand, as
// zkwatch.Conn.ReadNodeDetail does. It must give up when ctx ends.
type NodeReader func(ctx context.Context, path string) (zkwatch.NodeDetail, error)

// Options configure an App.
type Options struct {
	// Events are the watcher's events; the App reads them until the channel
	// closes. Nil means none (a fixed picture, as in tests).
	Events <-chan zkwatch.Event
	// Shared, when set, is a picture kept up to date by someone else
	// (zklocks serve's one watcher per cluster): the App shows its latest
	// State, never changes it, and ignores Events and State.
	Shared Shared
	// ReadNode reads a node for the node screen; nil disables reading.
	ReadNode NodeReader
	// Bell rings the terminal when a marked lock is granted or released;
	// nil leaves it to the status line.
	Bell func()
	// Copy puts text on the terminal's clipboard (OSC 52); nil makes the
	// copy keys say copying is not available.
	Copy Copier
	// CopyBlocked, when set, says why the terminal will most likely drop
	// a copy, and how to fix it (under tmux without set-clipboard on, see
	// CopyBlockedUnderTmux): a copy is still asked for, and this is said.
	CopyBlocked string
	// ReadChildren lists a node's children for the tree screen; nil
	// disables browsing.
	ReadChildren ChildrenReader
	// Focus, if not nil, is told the lock whose detail is opened, so that
	// the watcher may read the servers' watch table for it alone.
	Focus func(lockPath string)
	// NodeTimeout bounds each ReadNode call; zero means 10 s.
	NodeTimeout time.Duration
	// Server is the connect string, shown until a server is connected.
	Server string
	// Identity is who the session is to the server's ACLs, shown in the
	// status bar ("as sasl:ops"); "" shows nothing.
	Identity string
	// ReadOnly shows the READ-ONLY badge and disables every binding that
	// could change ZooKeeper.
	ReadOnly bool
	// ReadOnlyWhy is what a disabled binding says is why: --read-only,
	// a read-only context named as such, or (zklocks serve) the SSH key's
	// role.
	ReadOnlyWhy string
	// ReadOnlyBadge is the READ-ONLY badge's words when they say more, as
	// "READ-ONLY CONTEXT" for a context marked read-only; "" is
	// "READ-ONLY".
	ReadOnlyBadge string
	// Profile is the colour profile; termenv.Ascii for NO_COLOR. The zero
	// value (TrueColor) is used as is; see ProfileFromEnv.
	Profile termenv.Profile
	// Renderer, when set, is the terminal the styles are made for, with
	// its own colour profile (zklocks serve: each SSH session's, from
	// wish's bubbletea.MakeRenderer); Profile is then ignored.
	Renderer *lipgloss.Renderer
	// Now is the clock; nil means time.Now. Views read time only through it.
	Now func() time.Time
	// Location is where timestamps are shown; nil means time.Local.
	Location *time.Location
	// State is the starting picture; nil means an empty one.
	State *model.State
	// Demo, when set, is the running demo: the App opens on its lock,
	// shows its counters and binds its controls (see DemoControls).
	Demo DemoControls
	// DemoSwitch, when set, is what N does in the demo: it says which
	// lock the demo runs next (the naive one, or the fair one), and the
	// UI quits for the caller to start it. Nil: N says why it cannot.
	DemoSwitch func() string
	// Actions are the operator's writes (acquire, force-release, revoke,
	// fence); nil makes them unavailable. Under ReadOnly they are disabled
	// and say why.
	Actions *model.Actions
	// Approvals, when set, is the cluster's two-person rule (zklocks
	// serve, a context with approve: 2): Actions then file requests, each
	// session is told of every request and decision, and :approve
	// decides another operator's request.
	Approvals Approvals
	// Context names the cluster from the config file, shown in the
	// status bar; "" when none was used. Contexts are the file's names.
	Context  string
	Contexts []string
	// SwitchContext, when set, is told the context :ctx NAME switches
	// to, just before the UI quits for the caller to connect again; when
	// nil, :ctx says NoSwitch.
	SwitchContext func(name string)
	NoSwitch      string
	// OpenHistory, when set, binds R in the live UI: it is called, and the
	// UI quits, for the caller to open a replay of the last hour of the
	// history it keeps (zklocks serve), and the live UI again after.
	OpenHistory func()
	// Open is a lock's path, or a contender's node path, to open the
	// detail of as soon as it has been read; when every lock has been
	// read and it is none, the UI says so on the locks screen.
	Open string
	// Fleet, when set, is every context's last light poll, for the
	// fleet screen (:fleet); nil when there is no fleet to show (no
	// contexts in the config file, a recording).
	Fleet FleetSource
	// NoFleet says why Fleet is nil, when :fleet is asked for.
	NoFleet string
	// FleetOnly starts the App with no cluster: it shows the fleet screen
	// alone, and enter on a cluster switches to it (SwitchContext).
	FleetOnly bool
	// FromFleet says the cluster was opened from the fleet screen: esc on
	// a screen with nothing to clear goes back to it.
	FromFleet bool
	// Message is shown in the status line at start, as an error: why
	// the UI is where it is (a cluster the fleet screen could not open).
	Message string
	// Sort is the locks list's order to begin with, as the status line
	// names it ("severity", "wait", "contention", "age", "path"); empty or
	// unknown means severity: worst first.
	Sort string
	// SortChanged, when set, is told each order the operator picks with
	// the sort key, so that the next run can begin with it. It runs as a
	// command, off the UI's loop.
	SortChanged func(order string)
	// Tape, when set, replays a recording instead of watching: Events,
	// ReadNode, Actions, State and Now are ignored, and nothing can
	// change ZooKeeper (see replay.go).
	Tape *model.Tape
	// TapeWarnings are what reading the recording warned of (a part cut
	// short, a corrupt line, a gap in a log, members that disagree): while
	// there are any, the replay's status bar says so, and it tells the
	// first as it opens.
	TapeWarnings []string
}

// ProfileFromEnv returns termenv.Ascii when NO_COLOR is set (to anything),
// and detected otherwise.
func ProfileFromEnv(detected termenv.Profile) termenv.Profile {
	if os.Getenv("NO_COLOR") != "" {
		return termenv.Ascii
	}
	return detected
}
