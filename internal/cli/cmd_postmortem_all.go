package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
	"github.com/zklocks/zklocks/zkwatch"
)

// errNoLockUnder says postmortem --all found no lock to tell.
var errNoLockUnder = errors.New("no lock the recording knew at or under it in that stretch")

// atOrUnder is whether a lock is parent or below it.
func atOrUnder(parent string) func(lock string) bool {
	if parent == "/" {
		return func(string) bool { return true }
	}
	prefix := strings.TrimSuffix(parent, "/") + "/"
	return func(lock string) bool {
		return lock == strings.TrimSuffix(parent, "/") || strings.HasPrefix(lock, prefix)
	}
}

// postmortemAll tells every lock at or under parent in one pass over the
// source. A data directory is read as a stream into the pass: what is
// held is the locks' stories, not the log.
func postmortemAll(cmd *cobra.Command, g *globalFlags, srcs []string, parent string, r recording.Range, audits []string, asJSON bool) error {
	boundPassMemory()
	pass := model.NewStoryPass(atOrUnder(parent), r.From)
	if spill, err := os.CreateTemp("", "zklocks-stories-*"); err == nil {
		// Unlinked at once: the file goes with the process, however it
		// ends. Without one, the folded holds stay in memory.
		_ = os.Remove(spill.Name())
		defer spill.Close()
		pass.SpillTo(spill)
	}
	var partial, members []string
	if isDataSource(srcs) {
		var err error
		if partial, members, err = streamDataDirs(cmd.Context(), cmd.ErrOrStderr(), g, srcs, parent, r, audits, pass.Apply); err != nil {
			return err
		}
	} else {
		src, err := loadSourceOf(cmd.Context(), cmd.ErrOrStderr(), srcs, r, sourceWant{})
		if err != nil {
			return err
		}
		events, err := withAuditLogs(src.rec.Events, audits)
		if err != nil {
			return err
		}
		for _, ev := range events {
			pass.Apply(ev)
		}
	}
	pass.Finish(r.To)
	if err := report.WriteStories(cmd.OutOrStdout(), pass, report.StoriesOf{Under: parent, Partial: partial, Members: members}, asJSON, time.Local); err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	if len(pass.Locks()) == 0 {
		return &exitError{code: exitFailed, err: fmt.Errorf("%s: %w", model.Printable(parent), errNoLockUnder)}
	}
	return nil
}

// passMemoryLimit and passGCPercent are a pass's Go memory limit and
// GOGC. What a pass holds grows with its locks (about sixty-five
// megabytes for ten thousand), while it allocates a little for every
// transaction: Go's default lets the heap grow to twice what is
// live before collecting, which at 1 GB of logs put the peak RSS well
// over the live heap. Under the limit the heap may grow to three times
// what is live (fewer collections, less CPU); at the limit it is
// collected sooner, so that the peak stays near the limit while what is
// live stays under it.
const (
	passMemoryLimit = 144 << 20
	passGCPercent   = 200
)

// boundPassMemory sets a pass's memory limit and GOGC; $GOMEMLIMIT and
// $GOGC, when set, win.
func boundPassMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(passMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(passGCPercent)
	}
}

// streamDataDirs reads ZooKeeper data directories, the locks at or under
// parent,
// passing each event to apply as it is read (with the audit logs'
// actions among them) and keeping none. apply runs on a goroutine of its
// own, beside the read, and has applied every event when this returns.
func streamDataDirs(ctx context.Context, stderr io.Writer, g *globalFlags, srcs []string, parent string, r recording.Range, audits []string,
	apply func(zkwatch.Event)) (partial, members []string, err error) {
	want, err := wantOf(g, srcs, "")
	if err != nil {
		return nil, nil, err
	}
	actions, err := readAuditLogs(audits)
	if err != nil {
		return nil, nil, err
	}
	merge := model.NewActionMerge(actions)
	warn := func(err error) { fmt.Fprintf(stderr, "zklocks: warning: %s\n", model.Printable(err.Error())) }
	h := newHandoff(func(ev zkwatch.Event) { merge.Next(ev, apply) })
	res, err := txnlog.Load(ctx, srcs, txnlog.Options{Range: r, Under: parent, Analysis: lockcore.Options{Book: want.book}, Warn: warn,
		Emit: h.send})
	h.close()
	if err != nil {
		return nil, nil, &exitError{code: exitFailed, err: err}
	}
	merge.Rest(apply)
	for _, m := range res.Members {
		warn(errors.New(m))
	}
	if res.Sent == 0 {
		return nil, nil, &exitError{code: exitFailed, err: fmt.Errorf("%w: nothing read", txnlog.ErrNoTxnInRange)}
	}
	return res.Partial, res.Members, nil
}
