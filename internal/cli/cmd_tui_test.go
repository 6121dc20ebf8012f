package cli

import (
	"strings"
	"testing"
)

func TestOpenPathArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a path", []string{"shwo"}, `unknown command "shwo"`},
		{"path and --open", []string{"/a", "--open", "/b"}, "give one"},
		{"bad path", []string{"--open", "a/b"}, "--open"},
		{"two paths", []string{"/a", "/b"}, "accepts at most 1 arg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, append([]string{"--config", ""}, tc.args...)...)
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %q", code, stderr, tc.want)
			}
		})
	}
	if roots, added := rootsWithOpen("/jobs/x/lock", []string{"/locks"}); !added || strings.Join(roots, " ") != "/locks /jobs/x/lock" {
		t.Errorf("outside the roots: %v, added %v; want it watched as well", roots, added)
	}
	for _, roots := range [][]string{{"/"}, {"/jobs"}, {"/locks", "/jobs/x/lock"}} {
		if got, added := rootsWithOpen("/jobs/x/lock", roots); added || strings.Join(got, " ") != strings.Join(roots, " ") {
			t.Errorf("under %v: %v, added %v", roots, got, added)
		}
	}
}
