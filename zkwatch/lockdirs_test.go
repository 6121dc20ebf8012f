package zkwatch

import "testing"

func TestDirOf(t *testing.T) {
	for p, want := range map[string]string{"/": "/", "/a": "/", "/a/b": "/a", "/a/b/c": "/a/b"} {
		if got := dirOf(p); got != want {
			t.Errorf("dirOf(%q) = %q, want %q", p, got, want)
		}
	}
}
