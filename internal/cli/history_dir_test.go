package cli

import (
	"path/filepath"
	"testing"
)

// serve keeps a context's history under the context's name, and a
// cluster given by --server under its connect string and roots; a name
// never climbs out of the directory.
func TestServeHistoryDirIsTheContextsName(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	s := settings{server: "127.0.0.1:23181", roots: []string{"/locks"}}
	for _, tc := range []struct {
		offered []string
		name    string
		want    string
	}{
		{[]string{"prod", "staging"}, "prod", "/state/zklocks/history/serve/prod"},
		{nil, "", "/state/zklocks/history/serve/127.0.0.1_23181@_locks"},
		{[]string{".."}, "..", "/state/zklocks/history/serve/__"},
		{[]string{"a/b"}, "a/b", "/state/zklocks/history/serve/a_b"},
	} {
		got := historyFlags{}.forCluster("serve", serveHistoryName(tc.offered, tc.name, s)).dir
		if filepath.Clean(got) != tc.want {
			t.Errorf("%q of %v: %s, want %s", tc.name, tc.offered, got, tc.want)
		}
	}
}
