package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// plainStatsEvery is how often the plain view prints the counters.
const plainStatsEvery = 5 * time.Second

const plainKeys = "controls: + add a contender · x kill a session · z hang the holder / let it go · l lose a reply · s counters · q quit (then Enter)"

// runDemoPlain is the demo's line-oriented view: one line per event, the
// counters every few seconds, and controls read as lines from stdin. It
// returns when ctx ends or q is read; end of input leaves it running.
//
// With rf's file, a watcher of its own session records the demo's lock
// meanwhile, as the UI's would.
func runDemoPlain(ctx context.Context, cmd *cobra.Command, s settings, d *demo.Demo, opt zkwatch.Options, events <-chan demo.Event, where string, rf *recordFlags, longHeld time.Duration) error {
	if rf.out != "" {
		stop, err := recordDemo(ctx, cmd, s, d, opt, rf, longHeld)
		if err != nil {
			return err
		}
		defer stop()
	}
	out := cmd.OutOrStdout()
	fmt.Fprintln(out, demoTitle(d, where))
	fmt.Fprintln(out, "wakeups per release: the watch notifications a release delivers to the other contenders' sessions (1 for a fair lock, about N for the naive one)")
	fmt.Fprintln(out, plainKeys)
	lines := make(chan string)
	go readLines(cmd.InOrStdin(), lines)
	tick := time.NewTicker(plainStatsEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-events:
			fmt.Fprintln(out, eventLine(ev))
		case <-tick.C:
			fmt.Fprintln(out, statsLine(d.Stats()))
		case line, ok := <-lines:
			if !ok {
				lines = nil // end of input: keep showing
				continue
			}
			if quit := plainControl(ctx, out, d, line); quit {
				return nil
			}
		}
	}
}

// readLines sends each line of r, trimmed, and closes lines at its end.
func readLines(r io.Reader, lines chan<- string) {
	defer close(lines)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines <- strings.TrimSpace(sc.Text())
	}
}

// plainControl acts on one typed line; it reports whether to quit.
func plainControl(ctx context.Context, out io.Writer, d *demo.Demo, line string) bool {
	var msg string
	var err error
	switch strings.ToLower(line) {
	case "":
		return false
	case "q", "quit":
		return true
	case "+":
		msg, err = d.Add(ctx)
	case "x":
		msg, err = d.Kill()
	case "z":
		if d.Stats().Frozen > 0 {
			msg, err = d.Unfreeze()
		} else {
			msg, err = d.Freeze()
		}
	case "l":
		if msg, err = d.LoseReply(ctx); err == nil {
			msg += "; " + d.FenceHint()
		}
	case "s":
		msg = statsLine(d.Stats())
	default:
		msg = plainKeys
	}
	if err != nil {
		msg = "! " + err.Error()
	}
	fmt.Fprintln(out, model.Printable(msg))
	return false
}

// eventLine is one event as the plain view prints it.
func eventLine(ev demo.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-11s #%-3d", ev.At.Format("15:04:05.000"), ev.Kind, ev.Contender)
	if ev.Session != 0 {
		fmt.Fprintf(&b, " %s", lockcore.SessionHex(ev.Session))
	}
	if ev.Node != "" {
		b.WriteString("  " + model.ShortNode(path.Base(ev.Node)))
	}
	if ev.Kind == demo.Granted {
		if ev.Mode != "" && ev.Mode != "exclusive" {
			b.WriteString("  " + string(ev.Mode))
		}
		b.WriteString("  waited " + model.Duration(ev.Waited))
		if ev.OutOfOrder {
			b.WriteString("  OUT OF ORDER: overtook a contender waiting longer")
		}
	}
	if ev.Err != nil {
		b.WriteString("  " + ev.Err.Error())
	}
	return model.Printable(b.String())
}

// statsLine is the counters in one line.
func statsLine(s demo.Stats) string {
	fifo := "FIFO kept"
	if s.FIFOBreaks > 0 {
		fifo = fmt.Sprintf("FIFO broken %d times", s.FIFOBreaks)
	}
	line := fmt.Sprintf("-- %d grants, %d releases · %.2f wakeups per release · %s · %d contenders: %d holding, %d waiting",
		s.Grants, s.Releases, s.WakeupsPerRelease(), fifo, s.Contenders, s.Holding, s.Waiting)
	if s.Frozen > 0 {
		line += fmt.Sprintf(", %d hung", s.Frozen)
	}
	if len(s.Orphans) > 0 {
		line += fmt.Sprintf("; orphans: %s", strings.Join(s.Orphans, " "))
	}
	return model.Printable(line)
}

// recordDemo records the demo's lock through a session of its own until
// stop is called, which reports what was recorded.
func recordDemo(ctx context.Context, cmd *cobra.Command, s settings, d *demo.Demo, opt zkwatch.Options, rf *recordFlags, longHeld time.Duration) (stop func(), err error) {
	dialCtx, cancel := context.WithTimeout(ctx, s.timeout)
	conn, err := zkwatch.Dial(dialCtx, opt)
	cancel()
	if err != nil {
		return nil, &exitError{code: exitUnreachable, err: err}
	}
	rec, err := rf.start(demoWatchConfig(d, longHeld).Roots, conn.Target().String(), cmd.Root().Version)
	if err != nil {
		conn.Close()
		return nil, err
	}
	rctx, rcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		recordUntilDone(rctx, conn, demoWatchConfig(d, longHeld), rec, "", nil)
	}()
	return func() {
		rcancel()
		<-done
		conn.Close()
		if err := finishRecording(rec, rf.out, func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", s) }); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "zklocks:", err)
		}
	}, nil
}
