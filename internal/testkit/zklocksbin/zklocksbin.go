// Package zklocksbin builds the zklocks command once per test process, for
// the tests and benchmarks that run the binary as a user runs it.
package zklocksbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Version is what the built binary's main.version is set to, as the
// Makefile sets it from git.
const Version = "v0.0.0-test"

// Path builds zklocks (the first time it is called in the process) and
// returns the binary's path. It fails the test when the build fails.
func Path(t testing.TB) string {
	t.Helper()
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// Isolate keeps a test process's zklocks runs (the binary's and any
// command run in-process) away from the user's own config file and log:
// it points $XDG_CONFIG_HOME and $XDG_STATE_HOME into a new directory. A
// TestMain calls it before m.Run and the returned cleanup after, which
// removes that directory and the binary Path built.
func Isolate() (cleanup func(), err error) {
	home, err := os.MkdirTemp("", "zklocks-test-")
	if err != nil {
		return nil, err
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	return func() {
		os.RemoveAll(home)
		mu.Lock()
		defer mu.Unlock()
		if dir != "" {
			os.RemoveAll(dir)
		}
	}, nil
}

var (
	mu  sync.Mutex
	dir string
)

var build = sync.OnceValues(func() (string, error) {
	mu.Lock()
	defer mu.Unlock()
	d, err := os.MkdirTemp("", "zklocks-bin-")
	if err != nil {
		return "", err
	}
	dir = d
	bin := filepath.Join(dir, "zklocks")
	cmd := exec.Command("go", "build", "-ldflags", "-X main.version="+Version, "-o", bin, "github.com/zklocks/zklocks")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})
