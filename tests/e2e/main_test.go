package e2e

import (
	"fmt"
	"os"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// shared is the package's ZooKeeper for the tests that never stop,
// restart or proxy theirs and need no special configuration; each works
// under a root of its own (shared.Root).
var shared zktest.Shared

// TestMain keeps the zklocks the tests run away from the user's own config
// file and log, and stops the shared ZooKeeper at the end.
func TestMain(m *testing.M) {
	cleanup, err := zklocksbin.Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	shared.Stop()
	cleanup()
	os.Exit(code)
}
