package peers

import (
	"strings"
	"testing"
)

// A machine without the clients must fail with the command that installs
// them, not skip: a skipped integration test reads as a passing one.
func TestMissingClientsSayHowToInstall(t *testing.T) {
	checks := map[string]error{
		"jars": func() error {
			b := javaPeers
			b.JarDir = t.TempDir()
			_, err := b.Build()
			return err
		}(),
		"kazoo":  checkKazoo("/nonexistent/python3"),
		"python": checkKazoo("/bin/false"),
	}
	for name, err := range checks {
		if err == nil || !strings.Contains(err.Error(), installHint) {
			t.Errorf("%s: error %v does not include %q", name, err, installHint)
		}
	}
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := javaPeers.Tool("javac"); err == nil || !strings.Contains(err.Error(), installHint) {
		t.Errorf("javac: error %v does not include %q", err, installHint)
	}
}

func TestContenderDirs(t *testing.T) {
	tests := []struct {
		kind    Kind
		variant string
		want    string // dirs joined by " ", or "error"
	}{
		{Curator, "mutex", "/a/b"},
		{Curator, "write+read", "/a/b"},
		{Curator, "semaphore:3", "/a/b/locks /a/b/leases"},
		{Kazoo, "semaphore:1", "/a/b-__lock__ /a/b"},
		{Kazoo, "read", "/a/b"},
		{ZkRecipe, "writelock", "/a/b"},
		{GoZk, "lock", "/a/b"},
		{GoZk, "semaphore:2", "error"},
		{Curator, "semaphore:0", "error"},
		{Kazoo, "mutex", "error"},
		{"etcd", "lock", "error"},
	}
	for _, tt := range tests {
		dirs, err := contenderDirs(tt.kind, tt.variant, "/a/b")
		got := strings.Join(dirs, " ")
		if err != nil {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("contenderDirs(%s, %s) = %q, %v; want %q", tt.kind, tt.variant, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "/", "a/b", "/a b"} {
		if _, err := contenderDirs(GoZk, "lock", bad); err == nil {
			t.Errorf("contenderDirs accepted lock path %q", bad)
		}
	}
}
