package lockcore

import "testing"

func TestParentPath(t *testing.T) {
	for p, want := range map[string]string{"/": "/", "/a": "/", "/a/b": "/a", "/a/b/c": "/a/b"} {
		if got := ParentPath(p); got != want {
			t.Errorf("ParentPath(%q) = %q, want %q", p, got, want)
		}
	}
}
