package cli

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/fleet"
	"github.com/zklocks/zklocks/zkwatch"
)

// tuiFlags are the root command's own flags: they concern the terminal UI
// that zklocks opens when given no command.
type tuiFlags struct {
	mouse    bool
	longHeld time.Duration
	record   recordFlags
	// open is the lock (or contender) whose detail the UI starts on.
	open string
	// bell rings the terminal when a lock marked with m changes hands.
	bell bool
	// fleet starts on the fleet screen, with no cluster open;
	// fleetInterval is how often it polls each context.
	fleet         bool
	fleetInterval time.Duration
}

// tuiCommand registers the UI's flags on root and returns what root runs.
func tuiCommand(root *cobra.Command, g *globalFlags, o *operateFlags) func(*cobra.Command, []string) error {
	f := &tuiFlags{}
	root.Flags().BoolVar(&f.mouse, "mouse", false, "scroll lists with the mouse wheel in the UI (the terminal's own\ntext selection then needs shift)")
	root.Flags().DurationVar(&f.longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held in the UI (0 turns it off)")
	f.record.register(root.Flags(), "record", "record what the UI is shown to this file, for zklocks replay (see zklocks record)")
	root.Flags().BoolVar(&f.bell, "bell", false, "ring the terminal's bell when a lock marked with m in the UI is granted or released")
	root.Flags().BoolVar(&f.fleet, "fleet", false, "start on the fleet screen: every context of the config file, worst first, with no\ncluster open (:fleet in the UI shows it too)")
	root.Flags().DurationVar(&f.fleetInterval, "fleet-interval", fleet.DefaultInterval, "how often the fleet screen polls each context (one session and one read of its\nlocks each time, closed at once)")
	root.Flags().StringVar(&f.open, "open", "", "start on this lock's detail (a lock's path, or a contender's); the same as\ngiving the path as the only argument")
	return func(cmd *cobra.Command, args []string) error {
		if err := f.takeOpen(args); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		return runTUI(cmd, g, o, f)
	}
}

// takeOpen takes the path to open from the only argument or --open, and
// checks that it is a ZooKeeper path.
func (f *tuiFlags) takeOpen(args []string) error {
	if len(args) == 1 {
		if !strings.HasPrefix(args[0], "/") {
			return fmt.Errorf("unknown command %q: the only argument zklocks takes is a lock's path, which starts with / (see zklocks --help)", args[0])
		}
		if f.open != "" && f.open != args[0] {
			return fmt.Errorf("a path (%s) and --open %s: give one", model.Printable(args[0]), model.Printable(f.open))
		}
		f.open = args[0]
	}
	if f.open == "" {
		return nil
	}
	f.open = path.Clean(f.open)
	if err := zkwatch.ValidatePath(f.open); err != nil {
		return fmt.Errorf("--open: %w", err)
	}
	return nil
}

// rootsWithOpen returns the roots the UI watches: roots, and the path to
// open too when it is under none of them, so that a lock show and explain
// read outside the context's roots opens as well. added says whether the
// path was added.
func rootsWithOpen(open string, roots []string) ([]string, bool) {
	if open == "" {
		return roots, false
	}
	for _, r := range roots {
		if r == "/" || open == r || strings.HasPrefix(open, r+"/") {
			return roots, false
		}
	}
	return append(slices.Clone(roots), open), true
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
	fr, err := newFleetRun(cmd, g, f)
	if err != nil {
		return err
	}
	for {
		next, err := runTUIOnce(cmd, g, o, f, fr)
		if err != nil || next == "" {
			return err
		}
		// :ctx NAME in the UI, or enter on the fleet screen: connect
		// again, as --context NAME would.
		if err := g.flags.Set("context", next); err != nil {
			return err
		}
		f.open = ""
		fr.only, fr.switched, fr.message = false, true, ""
		fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: switching to context %s\n", model.Printable(next))
	}
}

// runTUIOnce is one run of the UI on the settings the flags and the
// config file give; it returns the context the operator switched to, or
// "" when they quit.
func runTUIOnce(cmd *cobra.Command, g *globalFlags, o *operateFlags, f *tuiFlags, fr *fleetRun) (string, error) {
	s, err := g.load()
	if err != nil {
		return "", err
	}
	if fr.only {
		return runFleetOnly(cmd, s, fr, f.mouse)
	}
	if s.logFile == "-" {
		return "", &exitError{code: exitUsage, err: errNeedsFile}
	}
	roots, added := rootsWithOpen(f.open, s.roots)
	if added {
		fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s is under none of the roots (%s): watching it as well\n",
			model.Printable(f.open), model.Printable(strings.Join(s.roots, ", ")))
		s.roots = roots
	}
	audit, closeAudit, err := o.auditUnlessReadOnly(s.readOnly)
	if err != nil {
		return "", err
	}
	defer closeAudit()
	fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: connecting to %s (waiting up to %s)…\n", model.Printable(s.server), s.timeout)
	conn, err := s.dial(cmd.Context())
	if err != nil && fr.switched && fr.source != nil {
		// Opened from the fleet screen (or :ctx): back to it, saying why.
		fr.only, fr.message = true, "context "+s.context+": "+firstLine(err.Error())
		return runFleetOnly(cmd, s, fr, f.mouse)
	}
	if err != nil {
		return "", err
	}
	defer conn.Close()
	var progOpts []tea.ProgramOption
	if f.mouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	cfg := s.watchConfig()
	cfg.Analysis = s.analysis(f.longHeld)
	rec, err := f.record.start(cfg.Roots, conn.Target().String(), cmd.Root().Version)
	if err != nil {
		return "", err
	}
	// The screen can show a contender before its node is read; a
	// recording keeps every node's stat and data from its first event.
	cfg.ReadLater = rec == nil
	opt := uiOptions(s, conn, audit)
	opt.Open = f.open
	if f.bell {
		opt.Bell = func() { _, _ = os.Stdout.WriteString("\a") }
	}
	var next string
	opt.Context, opt.Contexts = s.context, s.file.names()
	switch {
	case rec != nil:
		opt.NoSwitch = "a recording holds one cluster: --record and :ctx exclude each other"
	case s.given("server"):
		opt.NoSwitch = "--server is given, and wins over every context"
	default:
		opt.SwitchContext = func(name string) { next = name }
	}
	fr.options(&opt)
	err = runUI(cmd.Context(), cmd.ErrOrStderr(), conn, cfg, opt, nil, rec, progOpts...)
	if rerr := finishRecording(rec, f.record.out, func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", s) }); err == nil {
		err = rerr
	}
	return next, err
}
