package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/model/fleet"
	"github.com/zklocks/zklocks/zkwatch"
)

// checkFlags are check's own flags as given.
type checkFlags struct {
	asJSON, walk, requireComplete bool
	allContexts                   bool
	warnHeld, critHeld            time.Duration
	warnWaiters, critWaiters      int
	warnWait, critWait            time.Duration
	critical, warning             []string
}

func newCheckCommand(g *globalFlags) *cobra.Command {
	f := &checkFlags{}
	def := check.DefaultThresholds()
	cmd := &cobra.Command{
		Use:   "check [flags] [PATH...]",
		Short: "Judge every lock against thresholds, for Nagios, Icinga, Sensu or cron",
		Long: `check reads every lock under the roots once (found as ls finds them), or the PATHs given
(read as show reads them), and judges each against thresholds: anomaly kinds that are critical
or warnings, how long a holder has held (--warn-held, --crit-held), how long the oldest
waiter has waited (--warn-wait, --crit-wait) and how many wait (--warn-waiters,
--crit-waiters). It prints a summary line first, then one line per finding (lock, kind, nodes,
session, the client's address when the servers' cons names it, the lock's holders, waiters,
oldest hold and oldest wait, and the evidence), NOTE lines for what it could not judge, then
Nagios performance data after a "|" line; --json prints the same as an object with the status.

A holder known to have held past --warn-held is long-held (a warning kind by default); past
--crit-held it is critical whatever the kind lists say; --crit-held alone lowers the default
--warn-held to it. Holds are judged by what one read proves: a holder that got the lock when
its predecessor left has no datable grant, so its hold is only known to lie between 0 and its
node's age; check says so (NOTE ... undated-hold) rather than count it as 0. The oldest
waiter's wait is exact (from its node's creation): --warn-wait (10m by default) and --crit-wait
catch a stuck queue whatever its holder's hold (leader elections aside, whose candidates wait by
design), and the finding names the holder the queue waits behind (holder_session, holder_client):
whom to page. --crit-wait alone, below the default --warn-wait, lowers it to the same.
0 turns a threshold off. Thresholds not given as flags come from the context's check section
of the config file (see zklocks config --help), then from the defaults; no config file is
needed (cron, a Kubernetes CronJob).

disconnected-holder and silent-holder need every member's cons: where a member refuses it
(4lw.commands.whitelist) and has no AdminServer, the kinds are not judged, and check says so
("not judged", complete=0, "complete": false in JSON). silent-holder (critical by default) is a
holder whose connection stands but whose member has heard nothing from it, not even a ping, for
more than a third of its session timeout: a frozen process (GC pause, SIGSTOP, stalled VM) that
blocks the lock until its session expires, and then, if it wakes, may go on as if it held. One
read judges it by the member's own clock (its freshest reply against the holder's last).

In a large tree the search uses the servers' dump of ephemeral nodes and stops there, as ls
does: locks whose contenders are all persistent nodes may then be missing. The summary says
so ("partial: ..."); it does not change the status unless --require-complete; --walk walks
the whole tree at --walk-rate instead. check never writes, and sets no watch.

--all-contexts checks every context of the config file, each with its own check section
(flags given win): a summary line, then one line per cluster, worst first. A cluster that
cannot be reached is an UNKNOWN line of its own; the exit code is the worst status, CRITICAL
before UNKNOWN. --json prints every cluster's check object under "clusters".

` + checkExitCodesHelp(),
		Example: `  zklocks check --context prod
  zklocks check --crit-held 1h --warn-waiters 10 --crit-waiters 50
  zklocks check --warn-wait 5m --crit-wait 15m
  zklocks check --all-contexts
  zklocks check --json /locks/orders | jq '.findings[] | select(.status == "CRITICAL")'`,
		Args: func(cmd *cobra.Command, args []string) error {
			for _, p := range args {
				if err := zkwatch.ValidatePath(p); err != nil {
					return checkUnknown(cmd, err)
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.asJSON, "json", false, "print JSON for scripts")
	fl.BoolVar(&f.walk, "walk", false, "walk the whole tree at --walk-rate even where the servers' dump found the locks")
	fl.BoolVar(&f.allContexts, "all-contexts", false, "check every context of the config file, one line each, worst first;\nthe worst status is the exit code")
	fl.BoolVar(&f.requireComplete, "require-complete", false, "UNKNOWN when the search was partial (stopped at the dump, or paths denied)")
	fl.DurationVar(&f.warnHeld, "warn-held", def.WarnHeld, "a holder older than this is long-held (0: off)")
	fl.DurationVar(&f.critHeld, "crit-held", def.CritHeld, "a holder older than this is critical (0: off)")
	fl.DurationVar(&f.warnWait, "warn-wait", def.WarnWait, "WARNING when a lock's oldest waiter has waited this long (0: off)")
	fl.DurationVar(&f.critWait, "crit-wait", def.CritWait, "CRITICAL when a lock's oldest waiter has waited this long (0: off)")
	fl.IntVar(&f.warnWaiters, "warn-waiters", def.WarnWaiters, "WARNING when a lock has at least this many waiters (0: off)")
	fl.IntVar(&f.critWaiters, "crit-waiters", def.CritWaiters, "CRITICAL when a lock has at least this many waiters (0: off)")
	fl.StringSliceVar(&f.critical, "critical", kindStrings(def.Critical), "anomaly kinds that are CRITICAL (comma-separated; \"\" for none)")
	fl.StringSliceVar(&f.warning, "warning", kindStrings(def.Warning), "anomaly kinds that are WARNING (comma-separated; \"\" for none)")
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return checkUnknown(c, fmt.Errorf("%w (see %s --help)", err, c.CommandPath()))
	})
	return cmd
}

// runCheck reads, judges and prints; its error carries the status as the
// exit code.
func runCheck(cmd *cobra.Command, g *globalFlags, f *checkFlags, args []string) error {
	if f.allContexts {
		return runCheckFleet(cmd, g, f, args)
	}
	s, err := g.load()
	if err != nil {
		return checkUnknown(cmd, err)
	}
	th, err := f.thresholds(cmd, s)
	if err != nil {
		return checkUnknown(cmd, err)
	}
	ctx := cmd.Context()
	conn, err := s.dial(ctx)
	if err != nil {
		return checkUnknown(cmd, err)
	}
	defer conn.Close()
	var r check.Result
	if len(args) > 0 {
		r = checkPaths(ctx, conn, s, th, args)
	} else {
		cfg := s.watchConfig()
		cfg.Analysis, cfg.Once, cfg.FullWalk = s.analysis(th.LongHeld()), true, f.walk
		r = checkState(searchLocks(ctx, conn, s, cfg), th)
	}
	r.RequireComplete = f.requireComplete
	if needsClients(r) {
		r.SetClients(askClients(ctx, conn, s.timeout))
	}
	if err := write(cmd, f.asJSON, r.WriteJSON, r.WriteText); err != nil {
		return &exitError{code: int(check.Unknown), err: err}
	}
	if st := r.Status(); st != check.OK {
		return &exitError{code: int(st), err: errors.New(r.Summary()), quiet: true}
	}
	return nil
}

// runCheckFleet is check --all-contexts: every context read at once,
// one line each, the worst status the exit code.
func runCheckFleet(cmd *cobra.Command, g *globalFlags, f *checkFlags, args []string) error {
	if len(args) > 0 {
		return checkUnknown(cmd, errors.New("--all-contexts checks every lock of every context: it takes no PATH"))
	}
	names, err := fleetContexts(g, "--all-contexts")
	if err != nil {
		return checkUnknown(cmd, err)
	}
	probe := fleetProbe(g, func(s settings) (check.Thresholds, error) { return f.thresholds(cmd, s) }, f.walk)
	rows := pollFleet(cmd.Context(), names, func(ctx context.Context, name string) fleet.Cluster {
		c := probe(ctx, name)
		c.Result.RequireComplete = f.requireComplete
		return c
	})
	fleet.Sort(rows)
	writeJSON := func(w io.Writer) error { return fleet.WriteJSON(w, rows, true) }
	writeText := func(w io.Writer) error { return fleet.WriteCheckText(w, rows) }
	if err := write(cmd, f.asJSON, writeJSON, writeText); err != nil {
		return &exitError{code: int(check.Unknown), err: err}
	}
	if st := fleet.Overall(rows); st != check.OK {
		return &exitError{code: int(st), err: errors.New(fleet.Summary(rows)), quiet: true}
	}
	return nil
}

// checkPaths judges the locks at paths, read once as show reads them.
func checkPaths(ctx context.Context, conn *zkwatch.Conn, s settings, th check.Thresholds, paths []string) check.Result {
	report := readReport(ctx, conn, s.timeout, s.watches, paths, s.analysis(th.LongHeld()))
	locks := make([]*lockcore.Lock, len(report.Locks))
	for i := range report.Locks {
		locks[i] = &report.Locks[i]
	}
	r := check.Evaluate(locks, th)
	r.CountUnknownLinks(locks, report.Links)
	r.LinksNote = report.LinksNote
	for _, e := range report.Errors {
		r.Errors = append(r.Errors, e.Err.Error())
	}
	return r
}

// checkState judges every lock a one-shot search found, saying what the
// search could not see.
func checkState(state *model.State, th check.Thresholds) check.Result {
	locks := state.SortedLocks(model.ByPath)
	r := check.Evaluate(locks, th)
	r.CountUnknownLinks(locks, state.Links)
	r.LinksNote = state.ClientsNote
	for _, e := range state.Errors {
		r.Errors = append(r.Errors, e.Error())
	}
	if state.LastSync.IsZero() {
		r.Errors = append(r.Errors, "the search for locks did not finish (the connection was lost)")
	} else if !state.Discovery.Complete {
		r.Partial = append(r.Partial, model.PartialNote(state.Discovery))
	}
	if n := len(state.Denied); n > 0 {
		r.Partial = append(r.Partial, model.DeniedNote(n))
	}
	return r
}

// needsClients reports whether a finding names a session, whose client
// the servers' cons can name.
func needsClients(r check.Result) bool {
	for _, f := range r.Findings {
		if f.Session != 0 {
			return true
		}
	}
	return false
}

// askClients asks every member for cons once, waiting up to timeout (at
// most 5 s), and returns what it said of each session's client. It is
// asked only when there is something to report: one cons per member per
// run.
func askClients(ctx context.Context, conn *zkwatch.Conn, timeout time.Duration) func(int64) model.Client {
	pollCtx, cancel := context.WithTimeout(ctx, min(timeout, 5*time.Second))
	defer cancel()
	ensemble := conn.Members(pollCtx)
	e := zkwatch.NewEnricher(ensemble.Servers, 0)
	e.TLS, e.Admin, e.Mode, e.Missing = conn.TLS(), conn.Admin(), zkwatch.WatchesRecipe, ensemble.Missing
	en := e.Poll(pollCtx)
	return func(session int64) model.Client { return model.ClientOf(en.Clients, en.Complete, session) }
}

// checkUnknown prints an UNKNOWN line on stdout, where monitoring systems
// look (the JSON object under --json), and returns err with check's
// UNKNOWN exit code.
func checkUnknown(cmd *cobra.Command, err error) error {
	// Without the package prefixes: the line is the operator's.
	r := check.Result{Failure: model.Plain(firstLine(err.Error()))}
	if wantsJSON(cmd) {
		if werr := r.WriteJSON(cmd.OutOrStdout()); werr != nil {
			return &exitError{code: int(check.Unknown), err: errors.Join(err, werr)}
		}
		return &exitError{code: int(check.Unknown), err: err}
	}
	fmt.Fprintln(cmd.OutOrStdout(), r.Summary())
	return &exitError{code: int(check.Unknown), err: err}
}

// wantsJSON reports whether --json was asked for: parsed, or, when the
// flags failed to parse before reaching it, among the raw arguments.
func wantsJSON(cmd *cobra.Command) bool {
	if on, err := cmd.Flags().GetBool("json"); err == nil && on {
		return true
	}
	for _, a := range rawArgs(cmd.Context()) {
		switch a {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
