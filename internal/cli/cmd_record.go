package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// recordFlags say where and how to record what the watcher sees: --out
// (record) or --record (the UI, demo), with --max-size and --keep.
type recordFlags struct {
	out     string
	maxSize sizeValue
	keep    int
}

// register adds the flags to fs, the file flag under name.
func (f *recordFlags) register(fs *pflag.FlagSet, name, usage string) {
	fs.StringVar(&f.out, name, "", usage)
	fs.Var(&f.maxSize, "max-size", "rotate the recording when its file reaches this size (e.g. 100MB): it becomes FILE.1, the one\nbefore FILE.2, …; 0 never rotates")
	fs.IntVar(&f.keep, "keep", 0, "with --max-size, keep this many full parts besides the current one (0 keeps all)")
}

// start opens the recording, or returns nil when none was asked for.
func (f *recordFlags) start(roots []string, server string, version string) (*recording.Writer, error) {
	if f.out == "" {
		return nil, nil
	}
	if f.keep < 0 {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--keep must be 0 or more, got %d", f.keep)}
	}
	w, err := recording.Create(f.out, recording.Options{MaxSize: int64(f.maxSize), Keep: f.keep,
		Header: recording.Header{Server: server, Roots: roots, By: "zklocks " + version}})
	if err != nil {
		return nil, &exitError{code: exitFailed, err: err}
	}
	return w, nil
}

// finish closes a recording, saying what it holds; nil does nothing.
func finishRecording(w *recording.Writer, path string, report func(string)) error {
	if w == nil {
		return nil
	}
	n := w.Events()
	if err := w.Close(); err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	report(fmt.Sprintf("recorded %d events to %s", n, path))
	return nil
}

func newRecordCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	f := &recordFlags{}
	cmd := &cobra.Command{
		Use:   "record --out FILE [--max-size SIZE [--keep N]]",
		Short: "Record what the watcher sees of every lock, for replay and postmortems",
		Long: `record watches every lock under the roots, as the UI does, and writes what it sees to FILE
until interrupted: a snapshot of every lock, then every change with its time, and the servers'
sessions, client addresses and watch tables at each reading. zklocks replay FILE shows it
again; zklocks show --recording FILE --at TIME prints a lock as it was. It follows this
host's audit log (--audit-log, or its default) as it runs, so that a force-release made
from the CLI or a UI on this host is recorded as one.

The file is gzip-compressed JSON lines (see docs/recording.md), flushed every second: an
interruption or a crash loses at most the last second and leaves a readable file.

` + exitCodesHelp(),
		Example: `  zklocks record --out incident.zklocks --server zk1:2181,zk2:2181 --root /locks
  zklocks record --out locks.zklocks --max-size 100MB --keep 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.out == "" {
				return &exitError{code: exitUsage, err: errors.New("record needs --out FILE")}
			}
			s, conn, err := g.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer conn.Close()
			w, err := f.start(s.roots, conn.Target().String(), cmd.Root().Version)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			fmt.Fprintf(stderr, "zklocks: recording to %s; Ctrl-C stops\n", f.out)
			if o.auditLog != "" {
				fmt.Fprintf(stderr, "zklocks: telling the force-releases of this host's audit log %s as such\n", model.Printable(o.auditLog))
			}
			warn := func(err error) { fmt.Fprintf(stderr, "zklocks: warning: %s\n", model.Printable(err.Error())) }
			recordUntilDone(cmd.Context(), conn, s.watchConfig(), w, o.auditLog, warn)
			return finishRecording(w, f.out, func(s string) { fmt.Fprintln(stderr, "zklocks:", s) })
		},
	}
	f.register(cmd.Flags(), "out", "the file to record to (required)")
	return cmd
}

// recordUntilDone watches cfg through conn and records every event, and
// the actions appended to the audit log at audit ("" none) meanwhile,
// until ctx ends and the watcher has stopped.
func recordUntilDone(ctx context.Context, conn *zkwatch.Conn, cfg zkwatch.WatchConfig, w *recording.Writer, audit string, warn func(error)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range recording.Tee(followingAudit(ctx, zkwatch.Watch(ctx, conn, cfg).Events(), audit, cfg.Roots, warn), w) {
	}
}

// sizeValue is a byte count given as 500000, 64KB, 100MB or 2GB (powers
// of 1024).
type sizeValue int64

func (v *sizeValue) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *sizeValue) Type() string   { return "size" }

func (v *sizeValue) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a size (e.g. 100MB)", s)
	}
	*v = sizeValue(n * mult)
	return nil
}
