package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zklocks/zklocks/ui"
)

// The sort order picked in one run is the one the next run begins with,
// kept in the user's state directory; a damaged file is as good as none.
func TestSortRememberedBetweenRuns(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	var first ui.Options
	rememberSort(&first)
	if first.Sort != "" || first.SortChanged == nil {
		t.Fatalf("first run: sort %q, remembering %v", first.Sort, first.SortChanged != nil)
	}
	first.SortChanged("wait")
	path := filepath.Join(dir, "zklocks", "ui.json")
	if b, err := os.ReadFile(path); err != nil || string(b) != "{\"sort\":\"wait\"}\n" {
		t.Fatalf("state file: %q, %v", b, err)
	}
	var second ui.Options
	rememberSort(&second)
	if second.Sort != "wait" {
		t.Errorf("second run begins by %q, want wait", second.Sort)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var third ui.Options
	rememberSort(&third)
	if third.Sort != "" {
		t.Errorf("a damaged state file gave sort %q", third.Sort)
	}
	third.SortChanged("path")
	if got := loadUIState(path).Sort; got != "path" {
		t.Errorf("after a damaged file, the next pick is kept as %q", got)
	}
}
