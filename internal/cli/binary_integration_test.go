package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIntegrationBinaryVersion checks that the built command reports the
// version the Makefile's -ldflags "-X main.version=..." sets.
func TestIntegrationBinaryVersion(t *testing.T) {
	out, err := exec.Command(zklocksBinary(t), "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), testVersion) {
		t.Fatalf("zklocks --version: %v, %q; want %s", err, out, testVersion)
	}
}
