package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/internal/zkserver"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// localServer is where the demo looks for a ZooKeeper when --server is not
// given.
const localServer = "127.0.0.1:2181"

// Demo time budgets: a JVM on a busy machine can take a while to start;
// closing waits for sessions to end and deletes a few nodes.
const (
	demoServerStart = 60 * time.Second
	demoProbe       = 3 * time.Second
	demoClose       = 15 * time.Second
)

type demoFlags struct {
	contenders int
	recipe     string
	naive      bool
	leases     int
	plain      bool
	throwaway  bool
	longHeld   time.Duration
	record     recordFlags
}

func newDemoCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	f := &demoFlags{}
	cmd := &cobra.Command{
		Use:   "demo [--contenders N] [--recipe exclusive|rw|semaphore | --naive]",
		Short: "Watch fairness and the herd effect live, on a throwaway ZooKeeper if need be",
		Long: `demo runs contenders, each with its own ZooKeeper session, that take one lock under
/zklocks-demo in turns with zklocks' own lock client, each holding it for 0.3–1.5 s and
queueing again. It shows the grants as they happen and two counters: wakeups per
release (the watch notifications a release delivers to the other contenders' sessions:
1 for a fair lock, about N for the naive one; a holder's notice of its own release is
not counted) and FIFO breaks (grants that overtook a contender waiting longer).

--recipe picks the fair lock: exclusive (Curator's InterProcessMutex layout), rw (a mix
of readers and writers) or semaphore (kazoo's, with --leases leases). --naive runs the
textbook lock instead: whoever creates the ephemeral node /zklocks-demo/naive/lock holds;
every waiter watches that one node, and all of them wake and race when it goes.

Controls: + adds a contender; X kills one contender's session (its node vanishes, the
chain heals); Z freezes the holder (a stuck lock to diagnose: once it has held past
--long-held, 5 s by default, the UI reports it long-held), or thaws it; L loses a
create's reply (a contender creates again without protection, leaving an orphan that
blocks its own session until it is fenced: F in the UI, or zklocks fence --server ADDR
PATH); N (in the UI) switches between the fair lock and the naive one, to see
fairness and the herd one after the other; q quits. The UI's other keys work as usual (? lists them). In the plain view
(--plain, or without a terminal) type the key, in either case, and Enter.

With --server or --context the demo uses that cluster. Otherwise it uses the ZooKeeper
on ` + localServer + ` if one answers there, and else (or with --throwaway) starts a
throwaway one from the installed package (make deps installs it) on a free port in a
temporary directory. On exit (q, Ctrl-C, SIGTERM, SIGHUP) the demo ends its contenders'
sessions, deletes what it created under /zklocks-demo, stops the throwaway server and
removes its files. If zklocks is killed outright, the kernel kills the server with it,
and the next demo removes the files left behind.

` + exitCodesHelp(),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, g, o, f) },
	}
	fl := cmd.Flags()
	fl.IntVarP(&f.contenders, "contenders", "n", demo.DefaultContenders, "how many contenders to start (1–100)")
	fl.StringVar(&f.recipe, "recipe", string(demo.Exclusive), "the fair lock to run: exclusive, rw or semaphore")
	fl.BoolVar(&f.naive, "naive", false, "run the naive lock, where every waiter watches one node, instead of a fair one")
	fl.IntVar(&f.leases, "leases", demo.DefaultMaxLeases, "the semaphore's leases (with --recipe semaphore)")
	fl.BoolVar(&f.plain, "plain", false, "print events as lines and read controls as lines instead of opening the terminal UI")
	fl.BoolVar(&f.throwaway, "throwaway", false, "start a throwaway ZooKeeper even when one answers on "+localServer)
	fl.DurationVar(&f.longHeld, "long-held", demo.DefaultLongHeld,
		"report holders that have held longer than this as long-held in the UI (0 turns it off); holds last 0.3–1.5 s, so Z's hung holder passes it")
	f.record.register(fl, "record", "record what the watcher sees of the demo's lock to this file, for zklocks replay")
	return cmd
}

// check validates the flags and returns the recipe they ask for.
func (f *demoFlags) check(cmd *cobra.Command) (demo.Recipe, error) {
	changed := cmd.Flags().Changed
	r, err := demo.ParseRecipe(f.recipe)
	switch {
	case err != nil:
		return "", err
	case r == demo.Naive:
		return "", errors.New("--naive runs the naive lock; --recipe picks a fair one")
	case f.naive && changed("recipe"):
		return "", errors.New("--naive and --recipe exclude each other")
	case f.contenders < 1 || f.contenders > 100:
		return "", fmt.Errorf("--contenders must be 1–100, got %d", f.contenders)
	case f.leases < 1:
		return "", fmt.Errorf("--leases must be at least 1, got %d", f.leases)
	case f.longHeld < 0:
		return "", fmt.Errorf("--long-held must not be negative, got %s", f.longHeld)
	case f.throwaway && (changed("server") || changed("context")):
		return "", errors.New("--throwaway starts a server of its own: it excludes --server and --context")
	}
	if f.naive {
		r = demo.Naive
	}
	return r, nil
}

func runDemo(cmd *cobra.Command, g *globalFlags, o *operateFlags, f *demoFlags) error {
	recipe, err := f.check(cmd)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	s, err := g.load()
	if err != nil {
		return err
	}
	plain := f.plain || !isatty.IsTerminal(os.Stdin.Fd()) || !isatty.IsTerminal(os.Stdout.Fd())
	if !plain && s.logFile == "-" {
		return &exitError{code: exitUsage, err: errNeedsFile}
	}
	// The first signal, also a closed terminal's SIGHUP, ends the demo
	// cleanly; after it, the default handling is back, so a second one ends
	// zklocks at once (the kernel still takes the throwaway server with it).
	ctx := SignalContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)

	stderr := cmd.ErrOrStderr()
	opt, srv, err := demoServer(ctx, s, f.throwaway, stderr)
	if err != nil {
		return err
	}
	// The last line on exit says what the demo removed and its figures.
	var farewell []string
	defer func() {
		if len(farewell) > 0 {
			fmt.Fprintln(stderr, "zklocks demo:", strings.Join(farewell, "; "))
		}
	}()
	if srv != nil {
		defer func() {
			if err := srv.Stop(); err != nil {
				fmt.Fprintln(stderr, "zklocks:", err)
				return
			}
			farewell = append(farewell, "stopped and removed the throwaway ZooKeeper")
		}()
	}

	fair := recipe
	if fair == demo.Naive {
		fair, _ = demo.ParseRecipe(f.recipe)
	}
	for first := true; ; first = false {
		next, err := runDemoRecipe(ctx, cmd, s, o, f, opt, srv != nil, recipe, fair, plain, first, &farewell)
		if err != nil || next == "" {
			return err
		}
		recipe = next
	}
}

// runDemoRecipe runs the demo on one recipe until the user quits, and
// returns "", or until they switch between the fair lock and the naive
// one (N in the UI), and returns the recipe to run next. Each run's
// figures go first in the farewell, named by recipe after a switch.
func runDemoRecipe(ctx context.Context, cmd *cobra.Command, s settings, o *operateFlags, f *demoFlags, opt zkwatch.Options,
	throwaway bool, recipe, fair demo.Recipe, plain, first bool, farewell *[]string) (next demo.Recipe, err error) {
	stderr := cmd.ErrOrStderr()
	events := make(chan demo.Event, 1024)
	// The UI's event log tells each contender's release by its own
	// session as released, which a watch alone cannot tell from a
	// force-release by another client.
	var feed *model.ActionFeed
	if !plain {
		feed = model.NewActionFeed()
	}
	cfg := demo.Config{Options: opt, Recipe: recipe, Contenders: f.contenders, MaxLeases: f.leases, DialTimeout: s.timeout,
		OnEvent: func(ev demo.Event) {
			if feed != nil && ev.Kind == demo.Released && ev.DeletedOwn != 0 {
				feed.Tell(model.OwnRelease(ev.At.UTC(), ev.Node, ev.DeletedOwn, ev.Session))
			}
			select {
			case events <- ev:
			default: // a slow terminal loses lines, never stalls a contender
			}
		}}
	d, err := demo.Start(ctx, cfg)
	switch {
	case err != nil && ctx.Err() != nil:
		return "", nil // stopped by a signal while starting
	case errors.Is(err, zkwatch.ErrUnreachable):
		return "", &exitError{code: exitUnreachable, err: err}
	case err != nil:
		return "", &exitError{code: exitFailed, err: err}
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), demoClose)
		defer cancel()
		stats := d.Stats()
		if err := d.Close(closeCtx); err != nil {
			fmt.Fprintln(stderr, "zklocks: cleaning up the demo:", err)
		} else {
			*farewell = append(*farewell, "ended its contenders' sessions and deleted "+model.Printable(d.LockPath())+
				" and what else it created under "+demo.Root)
		}
		figures := finalFigures(stats)
		if !first || next != "" {
			figures = string(recipe) + " lock: " + figures
		}
		*farewell = append([]string{figures}, *farewell...)
	}()
	if plain {
		where := opt.Target.String()
		if throwaway {
			where += " (throwaway ZooKeeper, removed on exit)"
		}
		return "", runDemoPlain(ctx, cmd, s, d, opt, events, where, &f.record, f.longHeld)
	}
	other := demo.Naive
	if recipe == demo.Naive {
		other = fair
	}
	var switchTo func() string
	if f.record.out == "" {
		// A recording holds one run: with --record the demo does not switch.
		switchTo = func() string { next = other; return string(other) }
	}
	err = runDemoTUI(ctx, cmd, s, o, d, feed, opt, &f.record, f.longHeld, switchTo)
	return next, err
}

// demoServer decides where the demo runs: the cluster --server or
// --context names; else the ZooKeeper on localServer if one answers; else
// a throwaway server, which the caller must stop.
func demoServer(ctx context.Context, s settings, throwaway bool, stderr io.Writer) (zkwatch.Options, *zkserver.Server, error) {
	if s.given("server") || s.given("context") {
		opt, err := s.options()
		if err != nil {
			return zkwatch.Options{}, nil, &exitError{code: exitUsage, err: err}
		}
		return opt, nil, nil
	}
	opt := zkwatch.Options{SessionTimeout: s.sessionTimeout, Logger: s.logger()}
	if !throwaway && zookeeperAt(ctx, localServer) {
		fmt.Fprintf(stderr, "zklocks: using the ZooKeeper on %s (--throwaway starts one of its own)\n", localServer)
		opt.Target = zkwatch.Target{Servers: []string{localServer}}
		return opt, nil, nil
	}
	fmt.Fprintln(stderr, "zklocks: starting a throwaway ZooKeeper…")
	startCtx, cancel := context.WithTimeout(ctx, demoServerStart)
	defer cancel()
	srv, err := zkserver.Start(startCtx, zkserver.Config{})
	switch {
	case errors.Is(err, zkserver.ErrNotInstalled):
		return zkwatch.Options{}, nil, &exitError{code: exitFailed, err: fmt.Errorf("%w (make deps installs what is missing)", err)}
	case err != nil:
		return zkwatch.Options{}, nil, &exitError{code: exitFailed, err: err}
	}
	opt.Target = zkwatch.Target{Servers: []string{srv.Addr()}}
	return opt, srv, nil
}

// zookeeperAt reports whether a ZooKeeper serves on addr: it answers srvr
// with a mode, or (when srvr is not allowed) gives a session.
func zookeeperAt(ctx context.Context, addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	if zkserver.Mode(ctx, addr) != "" {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, demoProbe)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: zkwatch.Target{Servers: []string{addr}}})
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// demoTitle names what runs, for the views' first line.
func demoTitle(d *demo.Demo, where string) string {
	what := map[demo.Recipe]string{demo.Exclusive: "fair exclusive lock", demo.ReadWrite: "fair read/write lock",
		demo.Semaphore: "fair semaphore", demo.Naive: "naive lock (every waiter watches one node)"}[d.Recipe()]
	return fmt.Sprintf("zklocks demo: %s %s on %s", what, model.Printable(d.LockPath()), model.Printable(where))
}

// finalFigures are the demo's counters as its exit line gives them.
func finalFigures(s demo.Stats) string {
	fifo := "FIFO kept"
	if s.FIFOBreaks > 0 {
		fifo = fmt.Sprintf("FIFO broken %d times in %d grants", s.FIFOBreaks, s.Grants)
	}
	return fmt.Sprintf("%.2f wakeups per release over %d releases, %s", s.WakeupsPerRelease(), s.Releases, fifo)
}
