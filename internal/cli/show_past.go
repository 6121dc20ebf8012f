package cli

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
)

// pastFlags are show's --recording and --at: a lock as a recording saw it.
type pastFlags struct {
	file   string
	at     string
	rng    rangeFlags
	audits []string
}

func (f *pastFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.file, "recording", "", "read the locks from this recording (a file, a history directory, an exporter's http://host:port, or a ZooKeeper data directory) instead of ZooKeeper")
	cmd.Flags().StringVar(&f.at, "at", "", "with --recording, the moment to show (03:12:04, +90s, -1m, end, …)")
	f.rng.register(cmd.Flags())
	registerAuditLogs(cmd, &f.audits)
}

// show prints paths (every lock, when none) as they were at f.at.
func (f *pastFlags) show(cmd *cobra.Command, g *globalFlags, asJSON bool, paths []string) error {
	if f.file == "" || f.at == "" {
		return &exitError{code: exitUsage, err: errors.New("--recording and --at go together")}
	}
	// A history (a directory, an exporter) runs to now, and a data
	// directory's logs end when they end: a moment given as a time of day
	// is the latest such one, and only what led up to it is read unless a
	// range says otherwise.
	data := isDataSource([]string{f.file})
	history := isURL(f.file) || (isDir(f.file) && !data)
	now := time.Now()
	var at time.Time
	r, err := f.rng.parse(now)
	if err != nil {
		return err
	}
	if history || data {
		if ar, aerr := recording.ParseRange("", f.at, "", now, time.Local); aerr == nil {
			at = ar.From
			if !f.rng.given() {
				r = recording.Range{From: at, To: at}
			}
		}
	}
	if history && at.IsZero() && !f.rng.given() {
		// +90s, -1m, start, end: of the last hour.
		r.From = now.Add(-time.Hour)
	}
	if data && at.IsZero() && !f.rng.given() {
		// start, end, +90s, -1m: of the logs' span, read from their
		// headers, so that only what led up to the moment is read, not
		// every transaction kept in memory to be counted back from.
		if span, serr := txnlog.Summarize(f.file); serr == nil {
			if at, err = model.ParseMomentIn(f.at, span.First, span.Last, time.Local); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			r = recording.Range{From: at, To: at}
		}
	}
	// One lock asked is followed alone: the tree read holds its
	// neighbourhood, not a million other nodes.
	one := ""
	if len(paths) == 1 {
		one = paths[0]
	}
	want, err := wantOf(g, []string{f.file}, one)
	if err != nil {
		return err
	}
	want.asked = paths
	src, err := loadSourceOf(cmd.Context(), cmd.ErrOrStderr(), []string{f.file}, r, want)
	if err != nil {
		return err
	}
	rec := src.rec
	events, err := withAuditLogs(rec.Events, f.audits)
	if err != nil {
		return err
	}
	tape := model.NewTape(events)
	if at.IsZero() {
		if at, err = tape.ParseAt(f.at, time.Local); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
	}
	n := tape.Count(at)
	fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s as at %s (after %d of its %d events, %s – %s)\n", model.Printable(f.file),
		at.Format("2006-01-02 15:04:05.000 MST"), n, tape.Len(), tape.Start().Format(time.TimeOnly), tape.End().Format(time.TimeOnly))
	report := pastReport(tape.StateAt(n), at, rec.Headers[0].Server, paths)
	report.Partial = src.partial
	if err := write(cmd, asJSON, report.WriteJSON, report.WriteText); err != nil {
		return err
	}
	if len(report.Errors) > 0 {
		for _, e := range report.Errors {
			fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s\n", model.Printable(e.Err.Error()))
		}
		if data && !f.rng.given() {
			// What came before the moment only built the tree: a lock
			// whose parent went with its last contender (a container's
			// does) is known only from what came before.
			fmt.Fprintln(cmd.ErrOrStderr(), "zklocks: the picture begins at that moment (the transactions before it only rebuilt the tree): "+
				"a lock whose node had gone by then is not known; --from an earlier time tells what came before")
		}
		return &exitError{code: exitFailed, err: fmt.Errorf("%d of %d paths were not locks at that moment", len(report.Errors), len(paths))}
	}
	return nil
}

// errNotThen says a path was not a known lock at the moment asked.
var errNotThen = errors.New("not a lock the recording knew at that moment")

// pastReport is show's report of s at at: paths, or every lock by path,
// their ages and holds measured at at, not when each was last read.
func pastReport(s *model.State, at time.Time, server string, paths []string) report.Report {
	r := report.Report{Server: server, WatchesSource: lockcore.WatchesFromRecipe, WatchesNote: s.WatchesNote,
		Clients: s.Clients, ClientsComplete: s.ClientsComplete, Servers: s.Servers, Links: s.Links}
	if len(paths) == 0 {
		for p := range s.Locks {
			paths = append(paths, p)
		}
		sort.Strings(paths)
	}
	for _, p := range paths {
		l, ok := s.Locks[p]
		if !ok {
			r.Errors = append(r.Errors, report.PathError{Path: p, Err: fmt.Errorf("%s: %w", p, errNotThen)})
			continue
		}
		r.Locks = append(r.Locks, model.LockAsAt(l, at))
		if l.WatchesSource == lockcore.WatchesFromServer {
			r.WatchesSource = lockcore.WatchesFromServer
		}
	}
	r.Ended = s.EndedOf(paths)
	return r
}
