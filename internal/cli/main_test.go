package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// shared is the package's ZooKeeper for the integration tests that never
// stop, restart or proxy theirs and need no special configuration; each
// works under a root of its own (shared.Root), and most run in parallel.
var shared zktest.Shared

// TestMain keeps the package's tests away from the user's own config file
// and log: every command run in-process reads $XDG_CONFIG_HOME and logs to
// $XDG_STATE_HOME, which point into a directory removed at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "zklocks-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	code := m.Run()
	shared.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}
