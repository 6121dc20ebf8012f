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
	if err := openUnderRoots("/jobs/x/lock", []string{"/locks"}); err == nil || !strings.Contains(err.Error(), "--root /jobs/x/lock") {
		t.Errorf("outside the roots: %v", err)
	}
	for _, roots := range [][]string{{"/"}, {"/jobs"}, {"/locks", "/jobs/x/lock"}} {
		if err := openUnderRoots("/jobs/x/lock", roots); err != nil {
			t.Errorf("under %v: %v", roots, err)
		}
	}
}
