package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/ui"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// releaseOwnTimeout bounds giving back the operator's own lock when the UI
// ends.
const releaseOwnTimeout = 5 * time.Second

// errNeedsFile refuses --log-file - where the UI would draw over the log.
var errNeedsFile = errors.New(`--log-file - would write over the UI; give a file, or "" for none`)

// uiOptions wires the UI to a connection, with the audited actions
// (refused under read-only); runUI adds the watcher's events.
func uiOptions(s settings, conn *zkwatch.Conn, audit *model.Audit) ui.Options {
	actions := newActions(conn, audit, s.readOnly, model.ViaUI)
	actions.NewSession = ownSessions(conn, s.timeout)
	if why := s.needsApproval(); why != "" {
		actions.Gate = model.RefusingGate(why)
	}
	actions.Access = conn.ActionAccess
	opt := ui.Options{
		ReadNode:      conn.ReadNodeDetail,
		ReadChildren:  conn.ReadChildren,
		NodeTimeout:   s.timeout,
		Server:        conn.Target().String(),
		Identity:      identityBadge(conn, s.timeout),
		ReadOnly:      s.readOnly,
		ReadOnlyWhy:   s.readOnlyWhy(),
		ReadOnlyBadge: s.readOnlyBadge(),
		Profile:       ui.ProfileFromEnv(termenv.NewOutput(os.Stdout).EnvColorProfile()),
		Copy:          termenv.NewOutput(os.Stdout).Copy,
		CopyBlocked:   tmuxCopyBlocked(),
		Actions:       actions,
	}
	rememberSort(&opt)
	return opt
}

// tmuxCopyBlocked says, inside tmux, whether tmux will drop the UI's
// copies (OSC 52) and how to fix it: see ui.CopyBlockedUnderTmux. Outside
// tmux, or when tmux cannot be asked, it says nothing.
func tmuxCopyBlocked() string {
	if os.Getenv("TMUX") == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", "show-options", "-gv", "set-clipboard").Output()
	if err != nil {
		return ""
	}
	return ui.CopyBlockedUnderTmux(string(out))
}

// ownSessions dials, for each lock the operator takes from the UI, a
// session of its own next to conn's (see model.Actions.NewSession): the
// watcher reads through conn and leaves its own watches out of the
// servers' table, while our waiter is judged by its session's real
// watches, and none of them outlives the acquisition.
func ownSessions(conn *zkwatch.Conn, timeout time.Duration) func(context.Context) (lockclient.ZK, func(), error) {
	return func(ctx context.Context) (lockclient.ZK, func(), error) {
		dialCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		c, err := conn.Another(dialCtx)
		if err != nil {
			return nil, nil, err
		}
		return c.LockZK(), c.Close, nil
	}
}

// uiGCPercent is the UI's GOGC: its heap is the locks it shows, and Go's
// default lets a heap grow to twice what is live before collecting; a UI
// on a shared host over SSH keeps closer to its live size, for a little
// more collecting. Its peak comes as its first picture is taken in, the
// live heap growing fast and its garbage with it (the picture of 10,000
// locks: 85 MB live, 134 MB in use at 50): 40 keeps it under 150 MB.
// $GOGC, when set, wins.
const uiGCPercent = 40

// uiFPS bounds how often the screen is redrawn. Bubble Tea's renderer
// wakes at this rate whether or not anything changed, so its default of
// 60 was most of an idle UI's CPU; 20 frames a second is still under the
// 50 ms a key press can wait before it shows.
const uiFPS = 20

// runUI is one run of the terminal UI, for zklocks and zklocks demo: it
// watches cfg through conn, runs the UI with opt until the user quits or
// ctx ends, then gives back the lock the operator took, if any, while
// still connected, and stops the watcher and waits for it, so that nothing
// reads through conn once the caller closes it. What it did on the way out
// goes to stderr. With rec, every event the UI gets is recorded first.
// feed, when not nil, is where the caller tells actions of its own (the
// demo's contenders' releases) beside the operator's.
func runUI(ctx context.Context, stderr io.Writer, conn *zkwatch.Conn, cfg zkwatch.WatchConfig, opt ui.Options, feed *model.ActionFeed,
	rec *recording.Writer, progOpts ...tea.ProgramOption) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(uiGCPercent)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := zkwatch.Watch(ctx, conn, cfg)
	// The operator's actions join the watcher's events ahead of the
	// recording and the UI's state.
	if feed == nil {
		feed = model.NewActionFeed()
	}
	if opt.Actions != nil {
		opt.Actions.Told = feed.Tell
	}
	events := feed.Merge(ctx, w.Events())
	if rec != nil {
		events = recording.Tee(events, rec)
	}
	opt.Events, opt.Focus = events, w.Focus
	app := ui.New(opt)
	progOpts = append([]tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx), tea.WithFPS(uiFPS)}, progOpts...)
	_, err := tea.NewProgram(app, progOpts...).Run()
	rctx, rcancel := context.WithTimeout(context.Background(), releaseOwnTimeout)
	if did, rerr := app.ReleaseOwn(rctx); rerr != nil {
		fmt.Fprintln(stderr, "zklocks:", model.Printable(rerr.Error()))
	} else if did != "" {
		fmt.Fprintln(stderr, "zklocks:", did)
	}
	rcancel()
	// Whatever our lock client still deletes in the background stops
	// here: the caller closes conn next, and our nodes go with its session.
	opt.Actions.Close()
	cancel()
	// The watcher closes its events once ctx ends.
	for range events {
	}
	return programError(err)
}

// programError is how a UI run's end is reported: a user's quit or
// interrupt is no error.
func programError(err error) error {
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted) {
		return &exitError{code: exitFailed, err: fmt.Errorf("terminal UI: %w", err)}
	}
	return nil
}
