package zkserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ClassArchive is a class-data-sharing archive (AppCDS) of one kind of
// JVM: the application classes it loads (ZooKeeper's, Curator's), parsed
// and verified once by a JVM that wrote them at its exit
// (-XX:ArchiveClassesAtExit), then mapped by every later JVM of the kind
// (-XX:SharedArchiveFile). A JVM start spends most of its CPU time
// loading those classes, and the test suite starts hundreds of them.
//
// An archive is named by everything it depends on: the JVM's files, the
// class path's jars (their real paths, sizes and times) and the JVM's
// flags, so that a changed installation or build makes a new one. A JVM
// given an archive it cannot use (another JVM's, a damaged file) runs as
// it would without one: the archive only saves time.
type ClassArchive struct {
	path string
}

// NewClassArchive names the archive, kept in dir, of a JVM run as java
// with flags and classpath; name tells its file from other kinds'. A
// classpath that is a directory's rather than jars' cannot be archived
// (the JVM refuses it), and neither can a missing java: the error says so.
func NewClassArchive(dir, name, java string, flags []string, classpath string) (ClassArchive, error) {
	sum := sha256.New()
	realJava, err := filepath.EvalSymlinks(java)
	if err != nil {
		return ClassArchive{}, fmt.Errorf("zkserver: class archive: %w", err)
	}
	// The launcher and the VM it loads: an update of either changes them.
	files := []string{realJava, filepath.Join(filepath.Dir(realJava), "..", "lib", "server", "libjvm.so"), filepath.Join(filepath.Dir(realJava), "..", "lib", "modules")}
	for _, p := range strings.Split(classpath, string(os.PathListSeparator)) {
		if !strings.HasSuffix(p, ".jar") {
			return ClassArchive{}, fmt.Errorf("zkserver: class archive: %s is not a jar", p)
		}
		files = append(files, p)
	}
	for _, p := range files {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ClassArchive{}, fmt.Errorf("zkserver: class archive: %w", err)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return ClassArchive{}, fmt.Errorf("zkserver: class archive: %w", err)
		}
		fmt.Fprintf(sum, "%s %d %d\n", real, fi.Size(), fi.ModTime().UnixNano())
	}
	fmt.Fprintf(sum, "%q\n%s\n", flags, classpath)
	return ClassArchive{path: filepath.Join(dir, "zklocks-cds-"+name+"-"+hex.EncodeToString(sum.Sum(nil))[:16]+".jsa")}, nil
}

// Path is the archive's file.
func (a ClassArchive) Path() string { return a.path }

// Ready reports whether the archive has been made.
func (a ClassArchive) Ready() bool {
	fi, err := os.Stat(a.path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// UseFlags are the JVM flags that map the archive. Its warnings (an
// archive it cannot use) are turned off: a child program's standard
// output may be a protocol.
func (a ClassArchive) UseFlags() []string {
	return []string{"-XX:SharedArchiveFile=" + a.path, "-Xlog:cds=off,cds+dynamic=off"}
}

// Claim makes this process the archive's maker, unless it is made or
// another live process is making it (then ok is false). The maker runs
// one JVM with makeFlags, which write the archive when that JVM exits of
// its own accord (or on SIGTERM; not on SIGKILL), then calls publish with
// whether it did: publish puts the archive in place and gives up the
// claim, so that another JVM may try when this one could not.
func (a ClassArchive) Claim() (makeFlags []string, publish func(exited bool), ok bool) {
	if a.path == "" || a.Ready() {
		return nil, nil, false
	}
	release, ok := Claim(a.path + ".claim")
	if !ok {
		return nil, nil, false
	}
	if a.Ready() { // made by another process between the two looks
		release()
		return nil, nil, false
	}
	// What a maker killed while writing left (this process holds the
	// claim now, so no other is writing).
	if left, _ := filepath.Glob(a.path + ".*.tmp"); len(left) > 0 {
		for _, f := range left {
			_ = os.Remove(f)
		}
	}
	tmp := fmt.Sprintf("%s.%d-%d.tmp", a.path, os.Getpid(), time.Now().UnixNano())
	publish = func(exited bool) {
		defer release()
		if fi, err := os.Stat(tmp); exited && err == nil && fi.Size() > 0 {
			if os.Rename(tmp, a.path) == nil {
				return
			}
		}
		_ = os.Remove(tmp)
	}
	return []string{"-XX:ArchiveClassesAtExit=" + tmp, "-Xlog:cds=off,cds+dynamic=off"}, publish, true
}

// serverArchive is the class archive of cfg's server JVM, in
// cfg.ClassArchiveDir. When it is not made yet and no other process is
// making it, this one makes it first (a few seconds, once per machine);
// the servers other processes start meanwhile run without it. Making it
// here rather than in the background leaves no goroutine or process of
// its own running beside the tests (some count their goroutines).
func serverArchive(cfg Config) ClassArchive {
	base, err := findJVM(cfg.JarDir)
	if err != nil {
		return ClassArchive{}
	}
	// Made with the class path every server has: the AdminServer's
	// servlet API after it leaves it usable (the archived class path need
	// only begin the JVM's).
	a, err := NewClassArchive(cfg.ClassArchiveDir, "zookeeper", base.java, baseJVMFlags, base.classpath)
	if err != nil {
		return ClassArchive{}
	}
	if makeFlags, publish, ok := a.Claim(); ok {
		trainArchive(cfg.JarDir, makeFlags, publish)
	}
	return a
}

// trainTimeout bounds the whole of making a server's class archive.
const trainTimeout = 5 * time.Minute

// trainWords are asked of the archive's server so that the classes that
// answer them are archived too.
var trainWords = []string{"srvr", "stat", "cons", "mntr", "wchc", "dump", "conf"}

// trainArchive runs a standalone server with makeFlags until it serves,
// asks it the words the tests ask, and stops it with SIGTERM, at which
// its JVM writes the archive; then publishes it. The server is this
// process's child like any other (killed with its owner), and stopped
// before it returns.
func trainArchive(jarDir string, makeFlags []string, publish func(bool)) {
	exited := false
	defer func() { publish(exited) }()
	ctx, cancel := context.WithTimeout(context.Background(), trainTimeout)
	defer cancel()
	s, err := Launch(Config{JarDir: jarDir, JVMFlags: makeFlags})
	if err != nil {
		return
	}
	defer s.Stop()
	if s.Wait(ctx) != nil {
		return
	}
	for _, w := range trainWords {
		_, _ = FourLetter(ctx, s.Addr(), w)
	}
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil || p.cmd.Process.Signal(syscall.SIGTERM) != nil {
		return
	}
	select {
	case <-p.done:
		// The JVM's exit status on SIGTERM, once its shutdown (and the
		// archive's writing) is done, is 128+15.
		code := p.cmd.ProcessState.ExitCode()
		exited = code == 0 || code == 128+int(syscall.SIGTERM)
	case <-ctx.Done():
	}
}
