package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
	"github.com/zklocks/zklocks/zkwatch"
)

// runDemoTUI shows the demo in the terminal UI, opened on the demo's lock,
// with its counters and controls, watching /zklocks-demo through a session
// of its own. The UI's operating actions work as in the plain UI (fence
// the orphan that L leaves, force-release a frozen holder), audited, unless
// --read-only. It returns when the user quits or ctx ends; the caller then
// closes the demo.
func runDemoTUI(ctx context.Context, cmd *cobra.Command, g *globalFlags, o *operateFlags, d *demo.Demo, opt zkwatch.Options) error {
	audit, closeAudit, err := o.auditUnlessReadOnly(g.readOnly)
	if err != nil {
		return err
	}
	defer closeAudit()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dialCtx, dialCancel := context.WithTimeout(ctx, g.timeout)
	conn, err := zkwatch.Dial(dialCtx, opt)
	dialCancel()
	if err != nil {
		return &exitError{code: exitUnreachable, err: err}
	}
	defer conn.Close()
	w := zkwatch.Watch(ctx, conn, demoWatchConfig(d))
	opts := uiOptions(g, conn, w.Events(), audit)
	opts.Demo = d
	app := ui.New(opts)
	_, err = tea.NewProgram(app, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
	// Give back a lock the operator took in the demo, while connected.
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	if did, rerr := app.ReleaseOwn(rctx); rerr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", model.Printable(rerr.Error()))
	} else if did != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", did)
	}
	rcancel()
	cancel()
	for range w.Events() { // the watcher stops reading through conn before it is closed
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted) {
		return &exitError{code: exitFailed, err: fmt.Errorf("terminal UI: %w", err)}
	}
	return nil
}

// demoWatchConfig watches the demo's tree, asking the servers about their
// sessions (client addresses) and watches as the UI does. A fair lock's
// queue turns over faster than the watch table is sampled, so it is mostly
// analysed by its recipe's rules (a table older than a lock's last change
// is not used for it); the naive lock's waiters show only in the table.
func demoWatchConfig(d *demo.Demo) zkwatch.WatchConfig {
	return zkwatch.WatchConfig{Roots: []string{demo.Root}, Locks: []string{d.LockPath()}, EnrichEvery: time.Second}
}
