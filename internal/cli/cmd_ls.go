package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func newLsCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	var depth int
	var longHeld time.Duration
	cmd := &cobra.Command{
		Use:   "ls [flags]",
		Short: "List every lock under the roots, most contended first",
		Long: `ls walks the roots (default /, never /zookeeper) and lists every lock it finds: a node
whose children a lock recipe wrote, a semaphore, or an ephemeral node whose path mentions
"lock" or "mutex". For each: path, recipe, holders, waiters, oldest hold and anomaly kinds.
Paths whose ACL denies this session are listed as denied; the walk goes on.

` + exitCodesHelp(),
		Example: `  zklocks ls --root /locks --depth 3
  zklocks ls --json | jq '.locks[] | select(.waiters > 0)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			state, err := listLocks(cmd.Context(), s, zkwatch.WatchConfig{Roots: s.roots, MaxDepth: depth,
				Analysis: lockcore.Options{LongHeld: longHeld}, Once: true})
			if err != nil {
				return err
			}
			if err := write(cmd, asJSON, state.WriteListJSON, state.WriteListText); err != nil {
				return err
			}
			if len(state.Errors) > 0 {
				for _, e := range state.Errors {
					fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s\n", model.Printable(e.Error()))
				}
				return &exitError{code: exitFailed, err: fmt.Errorf("%d paths could not be read", len(state.Errors))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	cmd.Flags().IntVar(&depth, "depth", 0, "walk at most this many levels below each root (0: no limit)")
	cmd.Flags().DurationVar(&longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held (0 turns it off)")
	return cmd
}

// listLocks walks once and returns what was found, with the servers' watch
// table applied when every server gives it.
func listLocks(ctx context.Context, s settings, cfg zkwatch.WatchConfig) (*model.State, error) {
	conn, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	tableCtx, cancelTable := context.WithTimeout(ctx, s.timeout)
	cfg.Watches, _ = conn.ServerWatches(tableCtx)
	cancelTable()
	walkCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := zkwatch.Watch(walkCtx, conn, cfg)
	state := model.NewState()
	for ev := range w.Events() {
		state.Apply(ev)
	}
	return state, nil
}
