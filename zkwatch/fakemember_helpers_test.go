package zkwatch

import (
	"os"
	"path/filepath"
	"testing"
)

// readReply reads a member's reply captured byte for byte from ZooKeeper
// 3.8.0 (Debian). The captures belong to the package that parses them,
// words; the enrichment's tests feed the same bytes to a fake member.
func readReply(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("words", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
