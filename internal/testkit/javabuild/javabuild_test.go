package javabuild

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A build's classes go into a jar, by their paths under the classes
// directory (packages as directories, with slashes), each byte kept.
func TestWriteJarKeepsEveryClass(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"A.class": "a", "A$1.class": "inner", "pkg/B.class": "b"}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jar := filepath.Join(t.TempDir(), programJar)
	if err := writeJar(jar, dir); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := map[string]string{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		got[f.Name] = string(b)
	}
	if len(got) != len(files) {
		t.Fatalf("jar holds %v, want %v", got, files)
	}
	for name, content := range files {
		if got[name] != content {
			t.Errorf("%s: %q, want %q", name, got[name], content)
		}
	}
}
