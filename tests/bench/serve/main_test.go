package serve

import (
	"fmt"
	"os"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
)

// TestMain keeps the zklocks serve the benchmark runs away from the user's
// own config file and log.
func TestMain(m *testing.M) {
	cleanup, err := zklocksbin.Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}
