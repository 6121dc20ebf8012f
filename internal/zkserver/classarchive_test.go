package zkserver

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestClaimHeldOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.claim")
	release, ok := Claim(path)
	if !ok {
		t.Fatal("the first claim was refused")
	}
	if _, ok := Claim(path); ok {
		t.Fatal("a held claim was given again")
	}
	release()
	if _, ok := Claim(path); !ok {
		t.Fatal("a released claim was refused")
	}
}

func TestClaimOfAnEndedProcessIsTakenOver(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("whether a process has ended is known on Linux only")
	}
	path := filepath.Join(t.TempDir(), "x.claim")
	// No process has this id: Linux's pid_max is at most 2^22.
	if err := os.WriteFile(path, []byte("99999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Claim(path); !ok {
		t.Fatal("an ended process's claim was not taken over")
	}
	// A live process's claim (this one's) is not.
	path2 := filepath.Join(t.TempDir(), "y.claim")
	if err := os.WriteFile(path2, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Claim(path2); ok {
		t.Fatal("a live process's claim was taken over")
	}
}

// fakeJDK is a java launcher and VM files, and a jar, for naming archives
// without a JVM.
func fakeJDK(t *testing.T) (java, jar string) {
	dir := t.TempDir()
	for _, p := range []string{"bin/java", "lib/server/libjvm.so", "lib/modules", "a.jar"} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "bin/java"), filepath.Join(dir, "a.jar")
}

func TestClassArchiveIsNamedByWhatItDependsOn(t *testing.T) {
	java, jar := fakeJDK(t)
	dir := t.TempDir()
	a, err := NewClassArchive(dir, "k", java, []string{"-Xmx1m"}, jar)
	if err != nil {
		t.Fatal(err)
	}
	same, _ := NewClassArchive(dir, "k", java, []string{"-Xmx1m"}, jar)
	flags, _ := NewClassArchive(dir, "k", java, []string{"-Xmx2m"}, jar)
	if a.Path() != same.Path() || a.Path() == flags.Path() || !strings.HasPrefix(filepath.Base(a.Path()), "zklocks-cds-k-") {
		t.Fatalf("names: %s, again %s, other flags %s", a.Path(), same.Path(), flags.Path())
	}
	if err := os.WriteFile(jar, []byte("a changed jar"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, _ := NewClassArchive(dir, "k", java, []string{"-Xmx1m"}, jar); changed.Path() == a.Path() {
		t.Fatal("a changed jar kept the archive's name")
	}
	if _, err := NewClassArchive(dir, "k", java, nil, jar+string(os.PathListSeparator)+dir); err == nil {
		t.Fatal("a class path with a directory was taken: the JVM cannot archive it")
	}
}

func TestClassArchivePublishedOnlyWhenWritten(t *testing.T) {
	java, jar := fakeJDK(t)
	a, err := NewClassArchive(t.TempDir(), "k", java, nil, jar)
	if err != nil {
		t.Fatal(err)
	}
	flags, publish, ok := a.Claim()
	if !ok || a.Ready() {
		t.Fatalf("claim %v, ready %v", ok, a.Ready())
	}
	if _, _, again := a.Claim(); again {
		t.Fatal("claimed twice")
	}
	tmp, found := strings.CutPrefix(flags[0], "-XX:ArchiveClassesAtExit=")
	if !found {
		t.Fatalf("flags %v", flags)
	}
	// A JVM killed while writing: nothing published, the claim given up.
	if err := os.WriteFile(tmp, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	publish(false)
	if a.Ready() {
		t.Fatal("a killed JVM's archive was published")
	}
	flags, publish, ok = a.Claim()
	if !ok {
		t.Fatal("the claim was not given up")
	}
	tmp = strings.TrimPrefix(flags[0], "-XX:ArchiveClassesAtExit=")
	if err := os.WriteFile(tmp, []byte("archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	publish(true)
	if !a.Ready() || !strings.HasPrefix(a.UseFlags()[0], "-XX:SharedArchiveFile="+a.Path()) {
		t.Fatalf("ready %v, flags %v", a.Ready(), a.UseFlags())
	}
	if _, _, ok := a.Claim(); ok {
		t.Fatal("a made archive was claimed")
	}
}
