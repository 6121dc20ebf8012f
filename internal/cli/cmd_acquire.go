package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

func newAcquireCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	var mode, recipe string
	var maxLeases int
	var hold time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "acquire PATH [flags] [-- COMMAND [ARGS...]]",
		Short: "Take a lock as a fair participant of its recipe, like flock",
		Long: `acquire joins the lock at PATH as a fair participant of the recipe its contenders use
(Curator's for an empty parent; --recipe to choose), so the real clients respect it, and
waits for its turn watching only its predecessor.

With -- COMMAND, it runs the command while holding the lock, with $ZKLOCKS_NODE and
$ZKLOCKS_TOKEN (the fencing token) set, and exits with the command's exit code. If the
lock is lost while the command runs (its node deleted, or the session expired), the
command is sent SIGTERM, since it no longer has the lock. With --hold, it holds for that
long; with neither, until interrupted. The lock is released on the way out.

--timeout bounds the wait for the lock when given; without it, acquire waits as long as
it takes. Refused under --read-only. With a COMMAND, acquire exits with the command's
own exit code when nothing else went wrong.

` + exitCodesHelp(exitNotAcquired, exitLockLost),
		Example: `  zklocks acquire /locks/nightly --timeout 5m -- ./run-backup.sh
  zklocks acquire /locks/orders --mode read --hold 30s
  zklocks acquire /pool/workers --mode lease --max-leases 4 -- make build`,
		Args: func(cmd *cobra.Command, args []string) error {
			if n := cmd.ArgsLenAtDash(); n == 0 || len(args) == 0 || (n < 0 && len(args) != 1) || n > 1 {
				return &exitError{code: exitUsage, err: fmt.Errorf("acquire takes one PATH, then optionally -- COMMAND [ARGS...]")}
			}
			if err := zkwatch.ValidatePath(args[0]); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if _, err := lockcore.ParseMode(mode); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("--%w", err)}
			}
			if recipe != "" && !slices.Contains(lockcore.JoinableRecipes(), lockcore.Recipe(recipe)) {
				return &exitError{code: exitUsage, err: fmt.Errorf("--recipe must be one of %s, not %q",
					joinList(lockcore.JoinableRecipes(), " or "), recipe)}
			}
			if hold > 0 && cmd.ArgsLenAtDash() > 0 {
				return &exitError{code: exitUsage, err: fmt.Errorf("--hold and a COMMAND exclude each other")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			actions, conn, done, err := operator(cmd, s, o)
			if err != nil {
				return err
			}
			defer done()
			if err := checkAcquireAccess(cmd, conn, args[0]); err != nil {
				return err
			}
			// Signals stay caught until the lock is given back: a second
			// Ctrl-C does not leave it behind.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			acquireCtx := ctx
			if s.given("timeout") {
				var cancel context.CancelFunc
				acquireCtx, cancel = context.WithTimeout(ctx, s.timeout)
				defer cancel()
			}
			held, err := actions.Acquire(acquireCtx, lockclient.Spec{Path: args[0], Mode: lockcore.Mode(mode),
				Recipe: lockcore.Recipe(recipe), MaxLeases: maxLeases})
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				return &exitError{code: exitNotAcquired, err: fmt.Errorf("%s: not acquired within %s", args[0], s.timeout)}
			case err != nil:
				return &exitError{code: exitFailed, err: err}
			}
			tellGranted(cmd, held, asJSON)
			code, runErr := holdWhile(ctx, held, args[1:], hold)
			releaseErr := held.Release(context.Background())
			switch {
			case runErr != nil:
				return runErr
			case errors.Is(releaseErr, lockclient.ErrLockLost):
				return &exitError{code: exitLockLost, err: releaseErr}
			case releaseErr != nil:
				return &exitError{code: exitFailed, err: releaseErr}
			case code != 0:
				return &exitError{code: code, err: fmt.Errorf("command exited with %d", code)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&mode, "mode", string(lockcore.ModeExclusive), joinList(lockcore.Modes(), " or "))
	f.StringVar(&recipe, "recipe", "", "recipe to join (default the contenders'; Curator's when none):\n"+joinList(lockcore.JoinableRecipes(), ", "))
	f.IntVar(&maxLeases, "max-leases", 0, "a semaphore's lease limit (Curator does not record it; kazoo's must match)")
	f.DurationVar(&hold, "hold", 0, "hold the lock this long, then release")
	f.BoolVar(&asJSON, "json", false, "print the grant as JSON")
	return cmd
}

// tellGranted says what was granted: JSON on stdout, or a line on stderr.
func tellGranted(cmd *cobra.Command, h *lockclient.Held, asJSON bool) {
	if asJSON {
		report.WriteGrantJSON(cmd.OutOrStdout(), h)
		return
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: acquired %s (%s, %s), token %d\n", h.Node, h.Recipe, h.Mode, h.Token)
}

// holdWhile keeps the lock while the command runs, for the hold time, or
// until interrupted; a lost lock ends it early. It returns the command's
// exit code.
func holdWhile(ctx context.Context, h *lockclient.Held, command []string, hold time.Duration) (int, error) {
	if len(command) == 0 {
		var timer <-chan time.Time
		if hold > 0 {
			timer = time.After(hold)
		}
		select {
		case <-timer:
		case <-ctx.Done():
		case <-h.Lost():
			return 0, &exitError{code: exitLockLost, err: h.Err()}
		}
		return 0, nil
	}
	c := exec.Command(command[0], command[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	c.Env = append(os.Environ(), "ZKLOCKS_NODE="+h.Node, fmt.Sprintf("ZKLOCKS_TOKEN=%d", h.Token))
	if err := c.Start(); err != nil {
		return 0, &exitError{code: exitFailed, err: err}
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	select {
	case err := <-exited:
		return exitCode(err), nil
	case <-h.Lost():
		c.Process.Signal(syscall.SIGTERM)
		<-exited
		return 0, &exitError{code: exitLockLost, err: fmt.Errorf("%w; the command was sent SIGTERM", h.Err())}
	case <-ctx.Done():
		c.Process.Signal(syscall.SIGTERM)
		return exitCode(<-exited), nil
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
	}
	return exitFailed
}

// joinList lists values, the last after last.
func joinList[T ~string](values []T, last string) string {
	var b strings.Builder
	for i, v := range values {
		switch {
		case i == len(values)-1 && i > 0:
			b.WriteString(last)
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(string(v))
	}
	return b.String()
}
