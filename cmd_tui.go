package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
	"github.com/zklocks/zklocks/zkwatch"
)

// tuiFlags are the root command's own flags: they concern the terminal UI
// that zklocks opens when given no command.
type tuiFlags struct {
	mouse    bool
	longHeld time.Duration
}

// tuiCommand registers the UI's flags on root and returns what root runs.
func tuiCommand(root *cobra.Command, g *globalFlags, o *operateFlags) func(*cobra.Command, []string) error {
	f := &tuiFlags{}
	root.Flags().BoolVar(&f.mouse, "mouse", false, "scroll lists with the mouse wheel in the UI (the terminal's own\ntext selection then needs shift)")
	root.Flags().DurationVar(&f.longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held in the UI (0 turns it off)")
	return func(cmd *cobra.Command, _ []string) error { return runTUI(cmd, g, o, f) }
}

// runTUI connects, watches every lock under the roots, and runs the UI until
// the user quits. Errors before the UI starts (flags, the audit log,
// connecting) are returned with their exit code like any command's.
//
// The UI's actions are the operating commands' (see operator), except that
// --read-only does not refuse to start: the UI disables them and says why,
// and the audit log is opened only when they may write.
func runTUI(cmd *cobra.Command, g *globalFlags, o *operateFlags, f *tuiFlags) error {
	if !isatty.IsTerminal(os.Stdout.Fd()) || !isatty.IsTerminal(os.Stdin.Fd()) {
		return &exitError{code: exitUsage, err: errors.New("without a command zklocks opens its terminal UI, " +
			"which needs a terminal; in scripts use zklocks ls or zklocks show (see zklocks --help)")}
	}
	s, err := g.load()
	if err != nil {
		return err
	}
	if s.logFile == "-" {
		return &exitError{code: exitUsage, err: errors.New(`--log-file - would write over the UI; give a file, or "" for none`)}
	}
	audit, closeAudit, err := o.auditUnlessReadOnly(g.readOnly)
	if err != nil {
		return err
	}
	defer closeAudit()
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: connecting to %s (waiting up to %s)…\n", model.Printable(s.server), s.timeout)
	conn, err := g.dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	w := zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: g.roots, Analysis: lockcore.Options{LongHeld: f.longHeld}})
	app := ui.New(uiOptions(g, conn, w.Events(), audit))
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx)}
	if f.mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	_, err = tea.NewProgram(app, opts...).Run()
	// Give back the lock the operator took, if any, while connected.
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	if did, rerr := app.ReleaseOwn(rctx); rerr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", model.Printable(rerr.Error()))
	} else if did != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", did)
	}
	rcancel()
	cancel()
	// The watcher closes its events once ctx ends; wait, so that nothing
	// reads through conn after it is closed.
	for range w.Events() {
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted) {
		return &exitError{code: exitFailed, err: fmt.Errorf("terminal UI: %w", err)}
	}
	return nil
}

// uiOptions wires the UI to a connection and its watcher's events, with
// the audited actions (refused under read-only).
func uiOptions(g *globalFlags, conn *zkwatch.Conn, events <-chan zkwatch.Event, audit *model.Audit) ui.Options {
	return ui.Options{
		Events:      events,
		ReadNode:    conn.ReadNodeDetail,
		NodeTimeout: g.timeout,
		Server:      conn.Target().String(),
		ReadOnly:    g.readOnly,
		Profile:     ui.ProfileFromEnv(termenv.NewOutput(os.Stdout).EnvColorProfile()),
		Actions:     newActions(conn, audit, g.readOnly),
	}
}
