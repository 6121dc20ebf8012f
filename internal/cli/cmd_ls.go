package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/fleet"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"
)

func newLsCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	var depth int
	var longHeld time.Duration
	var fullWalk, allContexts bool
	cmd := &cobra.Command{
		Use:   "ls [flags]",
		Short: "List every lock under the roots, most contended first",
		Long: `ls finds every lock under the roots (default /, never /zookeeper): a node whose children
a lock recipe wrote, a semaphore, or an ephemeral node whose path mentions "lock" or "mutex".
For each: path, recipe, holders, waiters, oldest hold and anomaly kinds. Paths whose ACL
denies this session are listed as denied; the search goes on.

A tree of up to 2,000 nodes is walked whole. In a bigger one the servers' dump (every
session's ephemeral nodes) names the directories to look in, and the walk stops: locks
whose contenders are all persistent nodes are then found only with --walk, which walks the
whole tree at --walk-rate reads a second. ls says on stderr when it did not walk it all.

--all-contexts reads every context of the config file instead, one line per cluster, worst
first: its status (judged as check judges it, with the context's check section), state, locks,
holders, waiters, longest wait and worst finding; a cluster that could not be read is a line
saying why, and the exit code is then 2 (unreachable) or 1. Each cluster costs what one ls
costs it, and its session is closed at once.

` + exitCodesHelp(),
		Example: `  zklocks ls --root /locks --depth 3
  zklocks ls --all-contexts
  zklocks ls --json | jq '.locks[] | select(.waiters > 0)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if allContexts {
				for _, f := range []string{"depth", "long-held"} {
					if cmd.Flags().Changed(f) {
						return &exitError{code: exitUsage, err: fmt.Errorf("--all-contexts and --%s exclude each other: each cluster is judged as check judges it, with its context's check section", f)}
					}
				}
				return runLsFleet(cmd, g, asJSON, fullWalk)
			}
			s, err := g.load()
			if err != nil {
				return err
			}
			cfg := s.watchConfig()
			cfg.MaxDepth, cfg.Analysis, cfg.Once, cfg.FullWalk = depth, s.analysis(longHeld), true, fullWalk
			state, err := listLocks(cmd.Context(), s, cfg)
			if err != nil {
				return err
			}
			if d := state.Discovery; !d.Complete && len(state.Errors) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s\n", model.PartialNote(d))
			}
			if !asJSON {
				writeWays(cmd.ErrOrStderr(), state.Servers, state.Fix)
			}
			if err := write(cmd, asJSON,
				func(w io.Writer) error { return report.WriteListJSON(w, state) },
				func(w io.Writer) error { return report.WriteListText(w, state) }); err != nil {
				return err
			}
			if len(state.Errors) > 0 {
				for _, e := range state.Errors {
					fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s\n", model.Printable(e.Error()))
				}
				return &exitError{code: exitFailed, err: fmt.Errorf("%d paths could not be read", len(state.Errors))}
			}
			if n := len(state.Denied); n > 0 {
				// Listed as denied, and the search went on: what is below
				// them is not known, which the exit code says too.
				return &exitError{code: exitFailed, err: errors.New(model.DeniedNote(n))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&allContexts, "all-contexts", false, "one line per context of the config file, worst first: its state, locks, worst\nfinding and longest wait, judged as check judges it")
	cmd.Flags().IntVar(&depth, "depth", 0, "walk at most this many levels below each root (0: no limit)")
	cmd.Flags().BoolVar(&fullWalk, "walk", false, "walk the whole tree, at --walk-rate, even where the servers' dump found the locks:\nonly a walk finds locks whose contenders are all persistent nodes")
	cmd.Flags().DurationVar(&longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held (0 turns it off)")
	return cmd
}

// runLsFleet is ls --all-contexts: every context read at once, one line
// each, worst first; a context that could not be read is a line saying
// why, and the exit code says it too.
func runLsFleet(cmd *cobra.Command, g *globalFlags, asJSON, walk bool) error {
	names, err := fleetContexts(g, "--all-contexts")
	if err != nil {
		return err
	}
	rows := pollFleet(cmd.Context(), names, fleetProbe(g, contextThresholds, walk))
	writeJSON := func(w io.Writer) error { return fleet.WriteJSON(w, rows, false) }
	writeText := func(w io.Writer) error { return fleet.WriteListText(w, rows) }
	if err := write(cmd, asJSON, writeJSON, writeText); err != nil {
		return err
	}
	return fleetExit(rows)
}

// listLocks walks once and returns what was found, with the servers' watch
// table applied when every server gives it.
func listLocks(ctx context.Context, s settings, cfg zkwatch.WatchConfig) (*model.State, error) {
	conn, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return searchLocks(ctx, conn, s, cfg), nil
}

// searchLocks walks once through conn, as listLocks does, and returns what
// was found; its state's LastSync is zero if the walk ended before its
// sync (the connection was lost).
func searchLocks(ctx context.Context, conn *zkwatch.Conn, s settings, cfg zkwatch.WatchConfig) *model.State {
	tableCtx, cancelTable := context.WithTimeout(ctx, s.timeout)
	cfg.Watches, _ = conn.ReadWatches(tableCtx, s.watches)
	cancelTable()
	walkCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := zkwatch.Watch(walkCtx, conn, cfg)
	state := model.NewState()
	for ev := range w.Events() {
		state.Apply(ev)
	}
	// Every lock was read before the members are asked, so a session they
	// all leave out was connected nowhere when asked: a holder whose client
	// is gone is found here too.
	var owners []int64
	for _, l := range state.Locks {
		for _, p := range l.Participants {
			owners = append(owners, p.Session)
		}
	}
	linkCtx, cancelLinks := context.WithTimeout(ctx, s.timeout)
	links := conn.ReadLinks(linkCtx, owners, s.watches.Costs)
	cancelLinks()
	state.SetLinks(links.Links)
	state.Clients, state.ClientsComplete, state.Fix = links.Clients, links.Complete, links.Fix
	state.Servers = withAnswered(links.Servers, conn.Answered())
	if !links.Complete {
		state.ClientsNote = links.Note
	}
	return state
}

// writeWays says, on w, how each member that left a refused word
// unanswered answered, and the fix when neither way did. A member whose
// AdminServer answered every word it refused (ZooKeeper as Debian ships
// it) gave all that was asked: nothing is said.
func writeWays(w io.Writer, servers []zkwatch.ServerInfo, fix string) {
	for _, sv := range servers {
		if note := zkwatch.WaysNote(sv); note != "" && (unanswered(sv) || sv.AdminErr != nil) {
			fmt.Fprintf(w, "zklocks: %s: %s\n", model.Printable(sv.Addr), model.Printable(note))
		}
	}
	if fix != "" {
		fmt.Fprintf(w, "zklocks: %s\n", model.Printable(fix))
	}
}

// unanswered reports whether a word sv refused got no answer another way.
func unanswered(sv zkwatch.ServerInfo) bool {
	for _, w := range sv.Refused {
		if sv.Via[w] == "" {
			return true
		}
	}
	return false
}
