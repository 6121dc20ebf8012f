package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-zookeeper/zk"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

func newShowCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	var longHeld time.Duration
	var past pastFlags
	cmd := &cobra.Command{
		Use:   "show [flags] PATH...",
		Short: "Show who holds each lock, who waits, and on whom",
		Long: `show reads each lock path once and prints its contenders in queue order: holders,
waiters, each waiter's mode and the node it watches, the chain to a holder, and anomalies.

PATH is a lock parent (the node whose children are the contenders), a semaphore's path,
or a plain ephemeral lock node itself: one with no node (its parent has one) that some
session watches for (by the servers' watch table), or that a single-node entry of the
rule book names, is free, and shown so with the sessions that watch for it.

With --recording FILE --at TIME, show prints the locks as a recording (zklocks record)
saw them at that moment, without connecting: every lock when no PATH is given. TIME is
03:12:04, 2026-11-22 03:12:04, an RFC 3339 time, +90s (from the start), -1m (from the
end), start or end. --recording also takes a history's directory or an exporter's address
(http://host:port), where 03:12:04 is the latest such moment and +90s and -1m count in
the last hour, or in --since D (--from T --to T) when given. Watch targets come from the servers' watch table
(the wchc four-letter word, asked of every server, or its AdminServer's watches where
the word is refused) when all servers give it, and from each recipe's rule otherwise;
the output says which. CLIENT is each session's client address, from every server's
connections (cons, or the AdminServer's); zklocks doctor says what each server answers.

` + exitCodesHelp(),
		Example: `  zklocks show /locks/orders
  zklocks show --json --server zk1:2181,zk2:2181/app /locks/orders /locks/billing
  zklocks show --recording incident.zklocks --at 03:12:04 /locks/orders
  zklocks show --recording http://exporter:12181 --at 02:50 /locks/orders`,
		Args: func(cmd *cobra.Command, args []string) error {
			if past.file != "" && len(args) == 0 {
				return nil // every lock of the recording
			}
			return paths(args, "show needs at least one PATH: zklocks ls lists every lock under the roots (see zklocks show --help)")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if past.file != "" || past.at != "" || past.rng.given() || len(past.audits) > 0 {
				return past.show(cmd, g, asJSON, args)
			}
			s, conn, err := g.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer conn.Close()
			report := readReport(cmd.Context(), conn, s.timeout, s.watches, args, s.analysis(longHeld))
			for _, e := range report.Errors {
				fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s\n", model.Printable(e.Err.Error()))
			}
			if err := write(cmd, asJSON, report.WriteJSON, report.WriteText); err != nil {
				return err
			}
			if len(report.Errors) > 0 {
				return &exitError{code: exitFailed, err: fmt.Errorf("%d of %d paths could not be read", len(report.Errors), len(args))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	cmd.Flags().DurationVar(&longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held (0 turns it off)")
	past.register(cmd)
	return cmd
}

// readReport reads every path once through conn, then the servers' watch
// table (twice when a waiter is absent from the first: see judgedTable),
// and analyses each lock against it; each read waits up to timeout.
// Paths that could not be read are in the report's Errors.
//
// Then every member is asked for its connections (cons, once each), which
// tell whether each contender's session is connected to any member.
//
// The table is read as q says, keeping only the watches on these locks'
// nodes: on a cluster whose servers hold a million watches, wchs says so
// first and, under --watches=auto, the table is not read at all.
func readReport(ctx context.Context, conn *zkwatch.Conn, timeout time.Duration, q zkwatch.WatchQuery, paths []string, opt lockcore.Options) report.Report {
	rep := report.Report{Server: conn.Target().String(), WatchesSource: lockcore.WatchesFromRecipe}
	var trees []lockcore.Tree
	for _, p := range paths {
		// timeout bounds the server's silence, not the read: a lock of
		// 100,000 contenders takes as long as its answers take.
		readCtx, cancel := zkwatch.WithAnswerTimeout(ctx, timeout)
		t, err := conn.ReadTree(readCtx, p)
		cancel()
		if err != nil {
			rep.Errors = append(rep.Errors, report.PathError{Path: p, Err: err})
			continue
		}
		trees = append(trees, t)
	}
	for _, t := range trees {
		q.Locks = append(q.Locks, t.Path)
		for part := range t.Extra {
			q.Locks = append(q.Locks, part)
		}
	}
	watchCtx, cancel := context.WithTimeout(ctx, timeout)
	table, err := conn.ReadWatches(watchCtx, q)
	cancel()
	if err != nil {
		rep.WatchesNote, rep.WatchesErr = err.Error(), err
	} else {
		rep.WatchesSource = lockcore.WatchesFromServer
	}
	table = judgedTable(ctx, conn, timeout, q, trees, table, opt)
	var owners []int64
	for _, t := range trees {
		l := lockcore.Analyze(t, table, opt)
		if !freeLock(t, l, opt.Book) {
			rep.Errors = append(rep.Errors, report.PathError{Path: t.Path, Err: fmt.Errorf("%s: %w", t.Path, zk.ErrNoNode)})
			continue
		}
		if locks := locksBelow(ctx, conn, timeout, t, l); len(locks) > 0 {
			rep.Errors = append(rep.Errors, report.PathError{Path: t.Path, Err: fmt.Errorf("%s: %w, but these look like locks: %s",
				t.Path, errNotALock, strings.Join(locks, " "))})
			continue
		}
		for _, p := range l.Participants {
			owners = append(owners, p.Session)
		}
		rep.Locks = append(rep.Locks, l)
	}
	// The errors in the order the paths were given: a missing path is
	// known for one only once the watch table is read.
	slices.SortStableFunc(rep.Errors, func(a, b report.PathError) int {
		return slices.Index(paths, a.Path) - slices.Index(paths, b.Path)
	})
	// Every tree was read before the members are asked, so a session
	// they all leave out was connected nowhere when asked.
	linkCtx, cancel := context.WithTimeout(ctx, timeout)
	links := conn.ReadLinks(linkCtx, owners, q.Costs)
	cancel()
	rep.LinksNote = links.Note
	rep.Clients, rep.ClientsComplete, rep.Fix = links.Clients, links.Complete, links.Fix
	rep.Servers = withAnswered(links.Servers, conn.Answered())
	rep.Links = links.Links
	for i, l := range rep.Locks {
		rep.Locks[i] = lockcore.WithLinks(l, links.Links)
	}
	return rep
}

// freeLock reports whether t, read as l, is a lock to show: any path with
// a node, and one without (t.Absent) that reads as a free plain lock: a
// single-node entry of the rule book names its path, or some session
// watches for it (the servers' table). Any other missing path is a path
// that does not exist, a typo as likely as not (a path's words, which
// discovery reads a node by, say nothing of a node that is not there).
func freeLock(t lockcore.Tree, l lockcore.Lock, book *lockcore.Book) bool {
	_, _, named := book.SingleNodeEntry(t.Path)
	return !t.Absent || named || len(l.HiddenWaiters)+len(l.Observers) > 0
}

// errNotALock is a path given as a lock whose children are all locks'
// parents: one level too high.
var errNotALock = errors.New("not a lock")

// locksBelowLimit is how many children locksBelow reads at most.
const locksBelowLimit = 20

// locksBelow returns, for a tree read as a lock whose every child is
// unparsed (as the parent of several locks reads), those of its first
// children that are locks with contenders; none for a lock.
func locksBelow(ctx context.Context, conn *zkwatch.Conn, timeout time.Duration, t lockcore.Tree, l lockcore.Lock) []string {
	if len(l.Participants) > 0 || len(t.Children) == 0 {
		return nil
	}
	for _, a := range l.Anomalies {
		if a.Kind != lockcore.AnomalyUnparsed {
			return nil
		}
	}
	var locks []string
	for _, c := range t.Children[:min(len(t.Children), locksBelowLimit)] {
		child := path.Join(t.Path, c.Name)
		readCtx, cancel := zkwatch.WithAnswerTimeout(ctx, timeout)
		sub, err := conn.ReadTree(readCtx, child)
		cancel()
		if err == nil && len(lockcore.Analyze(sub, nil, lockcore.Options{}).Participants) > 0 {
			locks = append(locks, model.Printable(child))
		}
	}
	return locks
}

// paths accepts one or more valid paths, saying none when there are none.
func paths(paths []string, none string) error {
	if len(paths) == 0 {
		return &exitError{code: exitUsage, err: errors.New(none)}
	}
	for _, p := range paths {
		if err := zkwatch.ValidatePath(p); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
	}
	return nil
}

// write prints a command's result to stdout, as JSON or as text.
func write(cmd *cobra.Command, asJSON bool, writeJSON, writeText func(io.Writer) error) error {
	w := writeText
	if asJSON {
		w = writeJSON
	}
	if err := w(cmd.OutOrStdout()); err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	return nil
}

// withAnswered adds to each member's ways (ServerInfo.Via) the words asked
// of it outside the Enricher, such as the watch table, without changing
// servers, which may be shared.
func withAnswered(servers []zkwatch.ServerInfo, answered map[string]map[string]words.Via) []zkwatch.ServerInfo {
	out := slices.Clone(servers)
	for i, sv := range out {
		if len(answered[sv.Addr]) == 0 {
			continue
		}
		via := maps.Clone(sv.Via)
		if via == nil {
			via = map[string]words.Via{}
		}
		for w, v := range answered[sv.Addr] {
			if _, ok := via[w]; !ok {
				via[w] = v
			}
		}
		out[i].Via = via
	}
	return out
}
