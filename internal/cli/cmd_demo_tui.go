package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
	"github.com/zklocks/zklocks/zkwatch"
)

// runDemoTUI shows the demo in the terminal UI, opened on the demo's lock,
// with its counters and controls, watching /zklocks-demo through a session
// of its own. The UI's operating actions work as in the plain UI (fence
// the orphan that L leaves, force-release a hung holder), audited, unless
// --read-only, to the demo's own audit log unless --audit-log names one.
// It returns when the user quits or ctx ends; the caller then closes the
// demo.
//
// switchTo, when set, is what N does: it says which lock the demo runs
// next, and the UI quits for the caller to start it.
func runDemoTUI(ctx context.Context, cmd *cobra.Command, s settings, o *operateFlags, d *demo.Demo, feed *model.ActionFeed, opt zkwatch.Options,
	rf *recordFlags, longHeld time.Duration, switchTo func() string) error {
	o = demoAudit(o, cmd.Flags().Changed("audit-log"))
	if !s.readOnly {
		fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: the demo's actions are audited to %s\n", model.Printable(o.auditLog))
	}
	audit, closeAudit, err := o.auditUnlessReadOnly(s.readOnly)
	if err != nil {
		return err
	}
	defer closeAudit()
	dialCtx, dialCancel := context.WithTimeout(ctx, s.timeout)
	conn, err := zkwatch.Dial(dialCtx, opt)
	dialCancel()
	if err != nil {
		return &exitError{code: exitUnreachable, err: err}
	}
	defer conn.Close()
	uiOpt := uiOptions(s, conn, audit)
	uiOpt.Demo = demoControls{d}
	uiOpt.DemoSwitch = switchTo
	rec, err := rf.start(demoWatchConfig(d, longHeld).Roots, conn.Target().String(), cmd.Root().Version)
	if err != nil {
		return err
	}
	err = runUI(ctx, cmd.ErrOrStderr(), conn, demoWatchConfig(d, longHeld), uiOpt, feed, rec)
	if rerr := finishRecording(rec, rf.out, func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", s) }); err == nil {
		err = rerr
	}
	return err
}

// demoAudit is where the demo's actions are audited: demo-audit.log next
// to the real audit log, which a demo's fences and force-releases would
// only clutter, unless --audit-log was given (given).
func demoAudit(o *operateFlags, given bool) *operateFlags {
	if given {
		return o
	}
	return &operateFlags{auditLog: filepath.Join(filepath.Dir(o.auditLog), "demo-audit.log")}
}

// demoWatchConfig watches the demo's tree, asking the servers about their
// sessions (client addresses) and watches as the UI does. A fair lock's
// queue turns over faster than the watch table is sampled, so it is mostly
// analysed by its recipe's rules (a table older than a lock's last change
// is not used for it); the naive lock's waiters show only in the table.
func demoWatchConfig(d *demo.Demo, longHeld time.Duration) zkwatch.WatchConfig {
	return zkwatch.WatchConfig{Roots: []string{demo.Root}, Locks: []string{d.LockPath()}, EnrichEvery: time.Second,
		Analysis: lockcore.Options{LongHeld: longHeld}}
}

// demoControls are the demo's controls as the UI drives them, with the
// counters it shows.
type demoControls struct{ *demo.Demo }

func (d demoControls) Stats() ui.DemoStats {
	s := d.Demo.Stats()
	return ui.DemoStats{WakeupsPerRelease: s.WakeupsPerRelease(), FIFOBreaks: s.FIFOBreaks, Frozen: s.Frozen, Orphans: len(s.Orphans)}
}
