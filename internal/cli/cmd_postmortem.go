package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
)

func newPostmortemCommand() *cobra.Command {
	var src string
	var asJSON bool
	var rng rangeFlags
	cmd := &cobra.Command{
		Use:   "postmortem PATH --recording SOURCE [--since D | --from T --to T] [--json]",
		Short: "Tell a lock's story from a recording: holders, waiters, losses, anomalies, figures",
		Long: `postmortem reads a recording and tells what happened to the lock at PATH, plainly enough to
paste into an incident report: every holder with when it was granted, how long it held and
how it ended (released; expired, its session having been connected to no member; or forced
by zklocks' operator, with the audit line), every waiter with how long it waited and how
that ended, the connections lost (the recording's own, and the holders' sessions found
connected to no member), the anomalies as they arose and cleared, and the percentiles of
the waits and holds. --json prints the same as one JSON document.

SOURCE is a recording file (zklocks record), a history's directory, or an exporter's
address (http://host:port), which keeps the history by default. --since 1h, or --from 02:40
--to 03:10, tells that stretch only (times of day are the latest such moment); without
them, a history's last hour, or all of a file.

Only what the recording saw counts: a hold or wait already there when it began watching,
or first seen after a lost connection or a restart of the recorder, is marked as such
(≥ before its duration, there when watching began or first seen then), and is left out of
the figures.

` + exitCodesHelp(),
		Example: `  zklocks postmortem /locks/orders --recording http://exporter:12181 --since 1h
  zklocks postmortem /locks/orders --recording incident.zklocks --from 02:40 --to 03:10 --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &exitError{code: exitUsage, err: errors.New("postmortem needs one lock PATH (see zklocks postmortem --help)")}
			}
			if src == "" {
				return &exitError{code: exitUsage, err: errors.New("postmortem needs --recording SOURCE: a file, a history directory or an exporter's http://host:port")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			now := time.Now()
			r, err := rng.parse(now)
			if err != nil {
				return err
			}
			r = historyDefault(src, r, rng.given(), now)
			rec, err := loadSource(cmd.Context(), cmd.ErrOrStderr(), []string{src}, r)
			if err != nil {
				return err
			}
			st := model.TellStory(rec.Events, args[0], r.From, r.To)
			if err := write(cmd, asJSON, st.WriteJSON, func(w io.Writer) error { return st.WriteText(w, time.Local) }); err != nil {
				return err
			}
			if !st.Known {
				return &exitError{code: exitFailed, err: fmt.Errorf("%s: %w", model.Printable(args[0]), errNotThen)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&src, "recording", "", "the recording: a file, a history directory, or an exporter's http://host:port")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	rng.register(cmd.Flags())
	return cmd
}
