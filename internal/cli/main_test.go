package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
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

// testVersion is what the test binary's -ldflags set main.version to.
const testVersion = "v0.0.0-test"

// zklocksBinary builds the zklocks command once for the end-to-end tests,
// with main.version set as the Makefile sets it, into the directory
// TestMain removes at the end (the parent of $XDG_STATE_HOME).
func zklocksBinary(t testing.TB) string {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

var buildBinary = sync.OnceValues(func() (string, error) {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" {
		return "", fmt.Errorf("XDG_STATE_HOME is not set: TestMain should have set it")
	}
	bin := filepath.Join(filepath.Dir(state), "bin", "zklocks")
	build := exec.Command("go", "build", "-ldflags", "-X main.version="+testVersion, "-o", bin, "github.com/zklocks/zklocks")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})
