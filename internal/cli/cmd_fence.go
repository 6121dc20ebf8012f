package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

func newFenceCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	var dryRun, yes bool
	var extra []string
	cmd := &cobra.Command{
		Use:   "fence PATH... [--dry-run] [--node NODE]... [--yes]",
		Short: "Delete orphaned contenders: persistent ones and those a session waits behind",
		Long: `fence reads each lock PATH, as show does, and lists the fencing candidates from its
anomalies: persistent contenders and a session's older node that its own later node waits
behind (self-wait) are selected; other nodes of a session with several contenders are
suspects, listed with their evidence but never selected. Add a suspect with --node.

With --dry-run it stops there. Otherwise it asks for an explicit y (or --yes) and deletes
the selected nodes in one transaction, each version-checked: all go, or, if any changed
or vanished since it was read, none. Audited; refused under --read-only.

` + exitCodesHelp(),
		Args: func(cmd *cobra.Command, args []string) error {
			if err := paths(args, "fence needs at least one lock PATH"); err != nil {
				return err
			}
			for _, p := range extra {
				if err := zkwatch.ValidatePath(p); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			// Refuse under read-only, and open the audit log, before reading:
			// a dry run needs neither. The actions' connection reads too.
			var actions *model.Actions
			var conn *zkwatch.Conn
			if dryRun {
				if conn, err = s.dial(cmd.Context()); err != nil {
					return err
				}
				defer conn.Close()
			} else {
				if err := refuseUnapproved(cmd, s); err != nil {
					return err
				}
				var done func()
				if actions, conn, done, err = operator(cmd, s, o); err != nil {
					return err
				}
				defer done()
			}
			report := readReport(cmd.Context(), conn, s.timeout, s.watches, args, s.analysis(0))
			chosen, err := choose(report, extra)
			if err != nil {
				return err
			}
			printCandidates(cmd.OutOrStdout(), report, chosen)
			switch {
			case dryRun:
				fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: dry run: nothing was deleted (%s would be, in one transaction, "+
					"without --dry-run)\n", nodesText(len(chosen)))
				return nil
			case len(chosen) == 0:
				fmt.Fprintln(cmd.ErrOrStderr(), "zklocks: nothing to fence")
				return nil
			}
			where := model.Printable(s.server)
			if s.context != "" {
				where = "context " + model.Printable(s.context) + " (" + where + ")"
			}
			for _, e := range chosen {
				if err := checkAccess(cmd, conn, "fence", e.Path); err != nil {
					return err
				}
			}
			if err := confirm(cmd, fmt.Sprintf("Delete %s on %s in one transaction?", nodesText(len(chosen)), where), yes); err != nil {
				return err
			}
			if err := actions.Fence(cmd.Context(), chosen); err != nil {
				return &exitError{code: exitFailed, err: fmt.Errorf("fence aborted, nothing deleted: %w", err)}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: fenced %s\n", nodesText(len(chosen)))
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only show what would go")
	cmd.Flags().StringArrayVar(&extra, "node", nil, "also fence this suspect (a full node path listed as a candidate)")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

// nodesText is "1 node" or "n nodes".
func nodesText(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}

// choose returns the selected candidates of every lock, plus the suspects
// named with --node; a --node that is no candidate is refused.
func choose(r report.Report, extra []string) ([]lockclient.Expect, error) {
	want := map[string]bool{}
	for _, n := range extra {
		want[n] = true
	}
	var chosen []lockclient.Expect
	for _, l := range r.Locks {
		for _, c := range lockcore.FenceCandidates(l) {
			if c.Selected || want[c.Participant.Path] {
				chosen = append(chosen, lockclient.ExpectParticipant(c.Participant))
				delete(want, c.Participant.Path)
			}
		}
	}
	for n := range want {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--node %s is not a fencing candidate of these locks", model.Printable(n))}
	}
	return chosen, nil
}

func printCandidates(w io.Writer, r report.Report, chosen []lockclient.Expect) {
	picked := map[string]bool{}
	for _, e := range chosen {
		picked[e.Path] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FENCE\tNODE\tSESSION\tROLE\tWHY\tEVIDENCE")
	for _, l := range r.Locks {
		for _, c := range lockcore.FenceCandidates(l) {
			mark := "suspect"
			if picked[c.Participant.Path] {
				mark = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", mark, model.Printable(c.Participant.Path),
				model.SessionText(c.Participant.Session), c.Participant.Role, c.Reason, model.Printable(c.Evidence))
		}
	}
	tw.Flush()
}
