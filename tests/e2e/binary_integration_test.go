package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
)

// TestIntegrationBinaryVersion checks that the built command reports the
// version the Makefile's -ldflags "-X main.version=..." sets.
func TestIntegrationBinaryVersion(t *testing.T) {
	out, err := exec.Command(zklocksbin.Path(t), "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), zklocksbin.Version) {
		t.Fatalf("zklocks --version: %v, %q; want %s", err, out, zklocksbin.Version)
	}
}
