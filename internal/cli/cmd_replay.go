package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
)

func newReplayCommand(g *globalFlags) *cobra.Command {
	var mouse bool
	var rng rangeFlags
	var audits []string
	cmd := &cobra.Command{
		Use:   "replay FILE...|DIR|URL [--since D | --from T --to T]",
		Short: "Replay a recording in the UI, with a time cursor",
		Long: `replay opens the UI on a recording (zklocks record, or --record on the UI or demo) instead of
a cluster: every screen shows the locks, sessions, events and anomalies as they were at the
time cursor in the status bar. Nothing can be changed: a replay never connects to ZooKeeper.

Keys: space plays and pauses; < and > change the speed (×1 to ×100); [ and ] step to the
previous and next change; { and } to the previous and next grant of the selected lock; t goes
to a typed time (03:12:04, 2026-11-22 03:12, +90s from the start, -1m from the end). The
timeline (4) shows the selected lock's waits and holds up to the cursor.

Give a rotated recording's parts (FILE.2 FILE.1 FILE) to replay them in a row, a history's
directory (zklocks exporter --history) to replay its parts, or an exporter's address
(http://host:port, or its /history?since=1h) to replay what it kept, or ZooKeeper's own
data directory (the one holding version-2/, or version-2/ itself; one per ensemble member)
to replay what its snapshot and transaction logs say, at the leader's time of each
transaction, every end exact (see zklocks postmortem --help). --since 1h, or --from
02:40 --to 03:10, replays that stretch only, from the state it began in; a history without
them replays its last hour, and so do a data directory's logs that hold more (a replay
keeps every event in memory). A part that ends
early or has a corrupt line is replayed up to that line, with a warning naming it; a part
that cannot be read at all is skipped with a warning; the rest still replays. While the
replay is open its status bar counts the warnings and it tells the first; all are printed
again on quitting. Where the
recording stopped (an exporter restarted), the replay shows the connection lost.
--audit-log FILE (repeatable) adds the force-releases of another host's audit log, as
postmortem does, so that both tell them alike.

` + exitCodesHelp(),
		Example: `  zklocks replay incident.zklocks
  zklocks replay locks.zklocks.2 locks.zklocks.1 locks.zklocks
  zklocks replay http://exporter:12181 --since 1h
  zklocks replay ~/.local/state/zklocks/history/zk1_2181 --from 02:40 --to 03:10
  zklocks replay /var/lib/zookeeper --from 02:40 --to 03:10`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &exitError{code: exitUsage, err: errors.New("replay needs a recording FILE, a history DIR or an exporter's URL (see zklocks replay --help)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !isatty.IsTerminal(os.Stdout.Fd()) || !isatty.IsTerminal(os.Stdin.Fd()) {
				return &exitError{code: exitUsage, err: errors.New("replay opens the terminal UI, which needs a terminal; " +
					"in scripts use zklocks show --recording FILE --at TIME")}
			}
			r, err := rng.rangeOf(args, time.Now())
			if err != nil {
				return err
			}
			if isDataSource(args) && !rng.given() {
				var note string
				if r, note = dataReplayRange(args); note != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", note)
				}
			}
			want, err := wantOf(g, args, "")
			if err != nil {
				return err
			}
			want.maxEvents = maxReplayEvents
			src, err := loadSourceOf(cmd.Context(), cmd.ErrOrStderr(), args, r, want)
			if err != nil {
				return err
			}
			rec := src.rec
			events, err := withAuditLogs(rec.Events, audits)
			if err != nil {
				return err
			}
			opt := ui.Options{Tape: model.NewTape(events), TapeWarnings: src.warnings, Server: rec.Headers[0].Server,
				Profile: ui.ProfileFromEnv(termenv.NewOutput(os.Stdout).EnvColorProfile()), Copy: termenv.NewOutput(os.Stdout).Copy,
				CopyBlocked: tmuxCopyBlocked()}
			rememberSort(&opt)
			progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(cmd.Context())}
			if mouse {
				progOpts = append(progOpts, tea.WithMouseCellMotion())
			}
			_, err = tea.NewProgram(ui.New(opt), progOpts...).Run()
			// The UI's screen hid the warnings printed before it opened.
			for _, w := range src.warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: warning: %s\n", w)
			}
			return programError(err)
		},
	}
	cmd.Flags().BoolVar(&mouse, "mouse", false, "scroll lists with the mouse wheel")
	registerAuditLogs(cmd, &audits)
	rng.register(cmd.Flags())
	return cmd
}
