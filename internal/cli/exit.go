package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Exit codes. Every command's help lists the ones it can end with, from
// exitCodes.
const (
	exitOK          = 0
	exitFailed      = 1  // an error, or some paths could not be read
	exitUnreachable = 2  // no ZooKeeper server answered in time
	exitNotAcquired = 3  // acquire: not acquired within --timeout
	exitLockLost    = 4  // acquire: the lock was lost while held
	exitStillHeld   = 5  // revoke: requested, but still held when --wait ran out
	exitUsage       = 64 // bad flags or arguments
)

// exitCodes is the one table of exit codes and what they mean, in the
// order help lists them.
var exitCodes = []struct {
	code    int
	meaning string
}{
	{exitOK, "success"},
	{exitFailed, "an error, or some of the paths could not be read"},
	{exitUnreachable, "no ZooKeeper server answered within --timeout"},
	{exitNotAcquired, "not acquired within --timeout"},
	{exitLockLost, "the lock was lost while held"},
	{exitStillHeld, "revoke requested, but the node was still held when --wait ran out"},
	{exitUsage, "bad flags or arguments"},
}

// exitCodesHelp is the exit-code block of a command's help: the common
// codes (0, 1, 2, 64) and the extra ones named.
func exitCodesHelp(extra ...int) string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, e := range exitCodes {
		if e.code == exitNotAcquired || e.code == exitLockLost || e.code == exitStillHeld {
			if !slices.Contains(extra, e.code) {
				continue
			}
		}
		fmt.Fprintf(&b, "\n  %-3d %s", e.code, e.meaning)
	}
	return b.String()
}

// exitError carries an exit code up to ExecuteContext.
type exitError struct {
	code int
	err  error
	// quiet: the command has said all there is to say on stdout, so
	// ExecuteContext prints nothing more (check's verdicts).
	quiet bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCodeOf is the code a command's error ends zklocks with: its own, or
// exitUsage for errors cobra returns (unknown commands and flags).
func exitCodeOf(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	}
	return exitUsage
}

// isQuiet reports whether err's command has printed all it needs to.
func isQuiet(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.quiet
}

// checkExitCodes is check's table: the monitoring-plugin convention that
// Nagios, Icinga, Sensu and Checkmk read, which differs from every other
// command's on purpose (there 1 is an error and 2 an unreachable server).
var checkExitCodes = []struct {
	code    int
	meaning string
}{
	{0, "OK: no lock over a threshold"},
	{1, "WARNING: a lock needs a look (a warning kind, --warn-held, --warn-wait, --warn-waiters)"},
	{2, "CRITICAL: a lock is stuck (a critical kind, --crit-held, --crit-wait, --crit-waiters)"},
	{3, "UNKNOWN: the check could not tell: no server answered, bad flags or config,\n      reads failed (and nothing critical was seen), or --require-complete and the\n      search was partial or a listed kind could not be judged"},
}

// checkExitCodesHelp is the exit-code block of check's help.
func checkExitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Exit codes (the monitoring-plugin convention, unlike the other commands'):")
	for _, e := range checkExitCodes {
		fmt.Fprintf(&b, "\n  %-3d %s", e.code, e.meaning)
	}
	return b.String()
}
