// Package javabuild compiles the tests' small Java programs (Curator
// clients, benchmark contenders) against the jars Debian installs.
package javabuild

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// JavaBuild is a Java program of the tests' or benchmarks' (a Curator
// client, say) to compile against the jars in JarDir.
type JavaBuild struct {
	// Name tells its build directory, os.TempDir()/zklocks-Name-HASH, from
	// others.
	Name string
	// JarDir holds Jars, what it compiles and runs against.
	JarDir string
	Jars   []string
	// Sources are the .java files by name.
	Sources map[string][]byte
	// InstallHint is the command that installs a JDK's missing parts and
	// the jars, for errors.
	InstallHint string
}

// Build compiles the program into os.TempDir()/zklocks-Name-HASH, keyed by
// the sources and the jars' versions, unless an earlier process already
// has (or, while another compiles it, once that one has), and returns
// the class path to run it with: the program's jar, then the jars it
// uses. (A jar, not a directory of classes: a JVM can archive classes
// from jars only, see zkserver.ClassArchive.) The build is written under
// a temporary name and renamed into place, so that concurrent processes
// never see half a build.
func (b JavaBuild) Build() (classpath string, err error) {
	javac, err := b.Tool("javac")
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	var paths, missing []string
	for _, jar := range b.Jars {
		p := filepath.Join(b.JarDir, jar)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			missing = append(missing, p)
		}
		paths = append(paths, p)
		fmt.Fprintf(sum, "%s\n", real)
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("jars not found: %s; install them with: %s", strings.Join(missing, ", "), b.InstallHint)
	}
	names := make([]string, 0, len(b.Sources))
	for name := range b.Sources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(sum, "%s %d\n%s", name, len(b.Sources[name]), b.Sources[name])
	}
	jarPath := strings.Join(paths, string(os.PathListSeparator))
	fmt.Fprintf(sum, "%s\n", programJar)
	dir := filepath.Join(os.TempDir(), "zklocks-"+b.Name+"-"+hex.EncodeToString(sum.Sum(nil))[:16])
	classpath = filepath.Join(dir, programJar) + string(os.PathListSeparator) + jarPath
	// One process compiles, the others wait for its build: the packages
	// whose tests run the program start at once.
	for !built(dir) {
		if release, ok := zkserver.Claim(dir + ".building"); ok {
			defer release()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if built(dir) {
		return classpath, nil
	}

	tmp, err := os.MkdirTemp(os.TempDir(), "zklocks-"+b.Name+"-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src, classes, out := filepath.Join(tmp, "src"), filepath.Join(tmp, "classes"), filepath.Join(tmp, "out")
	for _, d := range []string{src, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}
	args := []string{"-nowarn", "-implicit:none", "-sourcepath", "", "-d", classes, "-cp", jarPath}
	for _, name := range names {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, b.Sources[name], 0o644); err != nil {
			return "", err
		}
		args = append(args, p)
	}
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("javac: %v\n%s", err, out)
	}
	if err := writeJar(filepath.Join(out, programJar), classes); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(out, "ok"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(out, dir); err != nil && !built(dir) {
		// A broken leftover: replace it.
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		if err := os.Rename(out, dir); err != nil {
			return "", err
		}
	}
	return classpath, nil
}

// Tool finds java or javac (see zkserver.JDKTool), failing with the command that
// installs what the program needs.
func (b JavaBuild) Tool(name string) (string, error) {
	p, err := zkserver.JDKTool(name)
	if err != nil {
		return "", fmt.Errorf("%s not found (%v); install a JDK (default-jdk-headless) and the clients with: %s",
			name, err, b.InstallHint)
	}
	return p, nil
}

// programJar is the name of the jar a build makes of the program's classes.
const programJar = "program.jar"

// writeJar writes the files under dir into a jar (a zip file; the class
// path needs no manifest) at path.
func writeJar(path, dir string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// built reports whether dir holds a complete build.
func built(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "ok"))
	return err == nil
}
