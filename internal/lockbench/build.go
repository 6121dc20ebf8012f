package lockbench

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// installHint is the command that provides the baseline clients.
const installHint = "apt-get install -y zookeeper python3-kazoo libcurator-recipes-java"

// jarDir is where Debian installs the jars; python is Debian's python3,
// which has python3-kazoo.
const (
	jarDir = "/usr/share/java"
	python = "/usr/bin/python3"
)

// jars are what CuratorLoop compiles and runs against (the ZooKeeper client
// uses NIO by default, so no netty).
var jars = []string{
	"curator-client.jar", "curator-framework.jar", "curator-recipes.jar",
	"zookeeper.jar", "zookeeper-jute.jar", "guava.jar", "slf4j-api.jar", "slf4j-nop.jar",
}

// jvmFlags leave the JIT at its defaults (package peers stops it at C1 to
// start faster): Curator is measured after its warm-up at full speed.
var jvmFlags = []string{"-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:-UsePerfData"}

//go:embed java/CuratorLoop.java
var curatorSource []byte

//go:embed python/kazoo_loop.py
var kazooSource []byte

// javaBuild compiles CuratorLoop once per process.
var javaBuild struct {
	once      sync.Once
	classpath string
	err       error
}

func newCuratorChild(cfg Config) (driver, error) {
	javaBuild.once.Do(func() { javaBuild.classpath, javaBuild.err = buildJava() })
	if javaBuild.err != nil {
		return nil, fmt.Errorf("lockbench: build CuratorLoop: %w", javaBuild.err)
	}
	java, err := jdkTool("java")
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), jvmFlags...), "-cp", javaBuild.classpath, "CuratorLoop")
	return startChild("curator", java, append(args, loopArgs(cfg)...), cfg.Logf)
}

func newKazooChild(cfg Config) (driver, error) {
	if out, err := exec.Command(python, "-c", "import kazoo").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("lockbench: %s cannot import kazoo (%v: %s); install it with: %s",
			python, err, strings.TrimSpace(string(out)), installHint)
	}
	script, err := writeOnce("kazoo_loop.py", kazooSource)
	if err != nil {
		return nil, err
	}
	return startChild("kazoo", python, append([]string{"-u", script}, loopArgs(cfg)...), cfg.Logf)
}

// loopArgs are every loop program's arguments.
func loopArgs(cfg Config) []string {
	return []string{cfg.Addr, cfg.Path, strconv.Itoa(cfg.Contenders), strconv.FormatInt(SessionTimeout.Milliseconds(), 10)}
}

// writeOnce writes content to os.TempDir()/zklocks-lockbench-HASH/name,
// unless it is there already, and returns its path.
func writeOnce(name string, content []byte) (string, error) {
	sum := sha256.Sum256(content)
	dir := filepath.Join(os.TempDir(), "zklocks-lockbench-"+hex.EncodeToString(sum[:])[:16])
	p := filepath.Join(dir, name)
	if b, err := os.ReadFile(p); err == nil && string(b) == string(content) {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return p, os.Rename(tmp.Name(), p)
}

// buildJava compiles CuratorLoop into os.TempDir()/zklocks-lockbench-HASH,
// keyed by the source and the jars' versions, unless an earlier run already
// has, and returns the class path to run it with. The classes are written
// under a temporary name and renamed into place, as package peers does.
func buildJava() (string, error) {
	javac, err := jdkTool("javac")
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	var paths, missing []string
	for _, jar := range jars {
		p := filepath.Join(jarDir, jar)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			missing = append(missing, p)
		}
		paths = append(paths, p)
		fmt.Fprintf(sum, "%s\n", real)
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("jars not found: %s; install them with: %s", strings.Join(missing, ", "), installHint)
	}
	fmt.Fprintf(sum, "%s", curatorSource)
	jarPath := strings.Join(paths, string(os.PathListSeparator))
	dir := filepath.Join(os.TempDir(), "zklocks-lockbench-"+hex.EncodeToString(sum.Sum(nil))[:16])
	classpath := dir + string(os.PathListSeparator) + jarPath
	if _, err := os.Stat(filepath.Join(dir, "CuratorLoop.class")); err == nil {
		return classpath, nil
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "zklocks-lockbench-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src, classes := filepath.Join(tmp, "CuratorLoop.java"), filepath.Join(tmp, "classes")
	if err := os.WriteFile(src, curatorSource, 0o644); err != nil {
		return "", err
	}
	out, err := exec.Command(javac, "-nowarn", "-implicit:none", "-sourcepath", "", "-d", classes, "-cp", jarPath, src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("javac: %v\n%s", err, out)
	}
	if err := os.Rename(classes, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "CuratorLoop.class")); statErr == nil {
			return classpath, nil // another run built it meanwhile
		}
		// A broken leftover: replace it.
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		if err := os.Rename(classes, dir); err != nil {
			return "", err
		}
	}
	return classpath, nil
}

// jdkTool finds java or javac, failing with the command that installs
// what the clients need.
func jdkTool(name string) (string, error) {
	p, err := zkserver.JDKTool(name)
	if err != nil {
		return "", fmt.Errorf("lockbench: %s not found (%v); install a JDK (default-jdk-headless) and the clients with: %s",
			name, err, installHint)
	}
	return p, nil
}
