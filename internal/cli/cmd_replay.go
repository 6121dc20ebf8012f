package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/ui"
)

func newReplayCommand() *cobra.Command {
	var mouse bool
	cmd := &cobra.Command{
		Use:   "replay FILE...",
		Short: "Replay a recording in the UI, with a time cursor",
		Long: `replay opens the UI on a recording (zklocks record, or --record on the UI or demo) instead of
a cluster: every screen shows the locks, sessions, events and anomalies as they were at the
time cursor in the status bar. Nothing can be changed: a replay never connects to ZooKeeper.

Keys: space plays and pauses; < and > change the speed (×1 to ×100); [ and ] step to the
previous and next change; { and } to the previous and next grant of the selected lock; t goes
to a typed time (03:12:04, 2026-11-22 03:12, +90s from the start, -1m from the end). The
timeline (4) shows the selected lock's waits and holds up to the cursor.

Give a rotated recording's parts (FILE.2 FILE.1 FILE) to replay them in a row. A file that
ends early or has a corrupt line is replayed up to that line, with a warning naming it.

` + exitCodesHelp(),
		Example: `  zklocks replay incident.zklocks
  zklocks replay locks.zklocks.2 locks.zklocks.1 locks.zklocks`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &exitError{code: exitUsage, err: errors.New("replay needs a recording FILE (see zklocks replay --help)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !isatty.IsTerminal(os.Stdout.Fd()) || !isatty.IsTerminal(os.Stdin.Fd()) {
				return &exitError{code: exitUsage, err: errors.New("replay opens the terminal UI, which needs a terminal; " +
					"in scripts use zklocks show --recording FILE --at TIME")}
			}
			rec, err := loadRecording(cmd.ErrOrStderr(), args)
			if err != nil {
				return err
			}
			opt := ui.Options{Tape: model.NewTape(rec.Events), Server: rec.Headers[0].Server,
				Profile: ui.ProfileFromEnv(termenv.NewOutput(os.Stdout).EnvColorProfile()), Copy: termenv.NewOutput(os.Stdout).Copy,
				CopyBlocked: tmuxCopyBlocked()}
			rememberSort(&opt)
			progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(cmd.Context())}
			if mouse {
				progOpts = append(progOpts, tea.WithMouseCellMotion())
			}
			_, err = tea.NewProgram(ui.New(opt), progOpts...).Run()
			return programError(err)
		},
	}
	cmd.Flags().BoolVar(&mouse, "mouse", false, "scroll lists with the mouse wheel")
	return cmd
}

// loadRecording reads a recording's parts. A reading that stopped at a bad
// line keeps what came before it, with a warning on stderr; a recording
// with no event at all is an error.
func loadRecording(stderr io.Writer, files []string) (*recording.Recording, error) {
	rec, err := recording.Load(files...)
	var le *recording.LineError
	switch {
	case errors.As(err, &le) && rec != nil && len(rec.Events) > 0:
		fmt.Fprintf(stderr, "zklocks: warning: %s\n", model.Printable(err.Error()))
	case err != nil:
		return nil, &exitError{code: exitFailed, err: err}
	case len(rec.Events) == 0:
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("%s: the recording holds no event", files[0])}
	}
	return rec, nil
}
