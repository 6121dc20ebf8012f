package zkwatch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFileLoggerCreatesPrivateFileOnFirstLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "zklocks", "zklocks.log")
	l := NewFileLogger(path)
	l.now = func() time.Time { return time.Date(2026, 11, 22, 14, 2, 11, 52_000_000, time.UTC) }
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file exists before any line: %v", err)
	}
	l.Printf("failed to connect to %s: %v", "zk1:2181", errors.New("refused"))
	l.Printf("second line\n")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "2026-11-22T14:02:11.052Z failed to connect to zk1:2181: refused\n" +
		"2026-11-22T14:02:11.052Z second line\n"
	if string(b) != want {
		t.Errorf("log is %q, want %q", b, want)
	}
	for p, mode := range map[string]fs.FileMode{path: 0o600, filepath.Dir(path): 0o700, filepath.Dir(filepath.Dir(path)): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != mode {
			t.Errorf("%s has mode %o, want %o", p, got, mode)
		}
	}
	if err := l.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
}

func TestOpenLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zklocks.log")
	l, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("OpenLog did not create the file: %v", err)
	}
	l.Printf("kept")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l.Printf("dropped after Close")
	b, _ := os.ReadFile(path)
	if got := string(b); len(got) < 5 || got[len(got)-5:] != "kept\n" {
		t.Errorf("log is %q, want one line ending in kept", got)
	}
}

func TestFileLoggerUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "zklocks.log") // a directory that is a file
	if _, err := OpenLog(path); err == nil {
		t.Fatal("OpenLog under a file succeeded")
	}
	l := NewFileLogger(path)
	l.Printf("dropped")
	if l.Err() == nil {
		t.Error("Err() = nil after a line could not be written")
	}
}
