package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"
)

// readAuditLogs reads the operators' actions from the audit logs at
// paths, in order.
func readAuditLogs(paths []string) ([]lockcore.Action, error) {
	var out []lockcore.Action
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("--audit-log: %w", err)}
		}
		actions, err := model.ReadAuditLog(f)
		f.Close()
		if err != nil {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("--audit-log %s: %w", model.Printable(p), err)}
		}
		out = append(out, actions...)
	}
	return out, nil
}

// withAuditLogs is events with the force-releases of the audit logs at
// paths added (model.WithActions): those a recording saw as deletes are
// then told forced, by whom. No paths, events as they are.
func withAuditLogs(events []zkwatch.Event, paths []string) ([]zkwatch.Event, error) {
	if len(paths) == 0 {
		return events, nil
	}
	actions, err := readAuditLogs(paths)
	if err != nil {
		return nil, err
	}
	return model.WithActions(events, actions), nil
}

// registerAuditLogs adds --audit-log FILE (repeatable) to a command that
// reads a recording: postmortem, replay, show --recording agree.
func registerAuditLogs(cmd *cobra.Command, paths *[]string) {
	cmd.Flags().StringArrayVar(paths, "audit-log", nil, "an audit log of a zklocks that may have acted, to tell its force-releases in the recording as such (repeatable)")
}

func newPostmortemCommand(g *globalFlags) *cobra.Command {
	var srcs []string
	var asJSON bool
	var audits []string
	var rng rangeFlags
	var all bool
	cmd := &cobra.Command{
		Use:   "postmortem PATH --recording SOURCE... [--all] [--since D | --from T --to T] [--audit-log FILE...] [--json]",
		Short: "Tell a lock's story from a recording: holders, waiters, losses, anomalies, figures",
		Long: `postmortem reads a recording and tells what happened to the lock at PATH, plainly enough to
paste into an incident report: every holder with when it was granted, how long it held and
how it ended (released-or-forced; expired, its session having been connected to no member;
or forced by zklocks' operator, with the audit line), a frozen holder's frozen stretch, every waiter with how long it waited and how
that ended, the connections lost (the recording's own, and the holders' sessions found
connected to no member), the anomalies as they arose and cleared, and the percentiles of
the waits and holds. --json prints the same as one JSON document.

SOURCE is a recording file (zklocks record), a history's directory, an exporter's
address (http://host:port), which keeps the history by default, or a ZooKeeper data
directory (the one holding version-2/, version-2/ itself, or a copy), told by its contents:
its newest snapshot before the stretch and its transaction logs after tell every hold and
wait at the leader's time of each transaction, and every end exactly (released by its own
session; forced, naming the session that deleted it; expired at its session's timeout, with
when its client was last heard; or its session closed by its client). Repeat --recording
with each ensemble member's data directory to read them as one history: where they differ,
or one lacks what the others hold, is said. zklocks never writes into a data directory,
and reads a live one up to what is complete; what it could not read is marked PARTIAL.

--since 1h, or --from 02:40 --to 03:10, tells that stretch only (times of day are the
latest such moment); without them, a history's last hour, or all of a file or data
directory.

A watch does not say which session deleted a node: in a recording, a holder's node
deleted while its session lived is told released-or-forced (released by its holder, or force-released by
another client) unless the recording holds the force-release of the zklocks that made
it. --audit-log FILE (repeatable) reads the audit logs of the zklocks that may have
acted (each host's, the CLI's and the UI's, default $XDG_STATE_HOME/zklocks/audit.log)
and matches their force-releases to the deletes by node and token: those are told
forced, with their line.

Only what the recording saw counts: a hold or wait already there when it began watching,
or first seen after a lost connection or a restart of the recorder, is marked as such
(≥ before its duration, there when watching began or first seen then), and is left out of
the figures.

--all tells every lock at or under PATH (/ for every lock), in one pass over the source: a
line per lock (its holds and how they ended, the longest hold and wait, its anomalies),
then each lock's story as above; --json prints them as one document. A data directory is
read as a stream: what is held is the locks' stories, not the log, however long it is.

` + exitCodesHelp(),
		Example: `  zklocks postmortem /locks/orders --recording http://exporter:12181 --since 1h
  zklocks postmortem /locks/orders --recording incident.zklocks --from 02:40 --to 03:10 --json
  zklocks postmortem /locks/orders --recording http://exporter:12181 --audit-log ops1-audit.log --audit-log ops2-audit.log
  zklocks postmortem /locks/orders --recording /var/lib/zookeeper --from 02:40 --audit-log /var/log/zklocks/audit.log
  zklocks postmortem /locks --all --recording /var/lib/zookeeper --from 02:40 --to 03:10`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &exitError{code: exitUsage, err: errors.New("postmortem needs one lock PATH (see zklocks postmortem --help)")}
			}
			if len(srcs) == 0 {
				return &exitError{code: exitUsage, err: errors.New("postmortem needs --recording SOURCE: a file, a history directory or an exporter's http://host:port")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := rng.rangeOf(srcs, time.Now())
			if err != nil {
				return err
			}
			if all {
				return postmortemAll(cmd, g, srcs, args[0], r, audits, asJSON)
			}
			want, err := wantOf(g, srcs, args[0])
			if err != nil {
				return err
			}
			src, err := loadSourceOf(cmd.Context(), cmd.ErrOrStderr(), srcs, r, want)
			if err != nil {
				return err
			}
			events, err := withAuditLogs(src.rec.Events, audits)
			if err != nil {
				return err
			}
			st := model.TellStory(events, args[0], r.From, r.To)
			st.Partial, st.Members = src.partial, src.members
			if err := write(cmd, asJSON, func(w io.Writer) error { return report.WriteStoryJSON(w, st) }, func(w io.Writer) error { return report.WriteStoryText(w, st, time.Local) }); err != nil {
				return err
			}
			if !st.Known {
				return &exitError{code: exitFailed, err: fmt.Errorf("%s: %w", model.Printable(args[0]), errNotThen)}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&srcs, "recording", nil, "the recording: a file, a history directory, an exporter's http://host:port, or a ZooKeeper data directory (repeat it for each member's)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&all, "all", false, "tell every lock at or under PATH (/ for every lock) in one pass: a line each, then each one's story")
	registerAuditLogs(cmd, &audits)
	rng.register(cmd.Flags())
	return cmd
}
