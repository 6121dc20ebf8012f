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

	"github.com/zklocks/zklocks/internal/testkit/javabuild"
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

// curatorLoop is CuratorLoop's build.
var curatorLoop = javabuild.JavaBuild{Name: "lockbench", JarDir: jarDir, Jars: jars, InstallHint: installHint,
	Sources: map[string][]byte{"CuratorLoop.java": curatorSource}}

// curatorClasspath compiles CuratorLoop once per process.
var curatorClasspath = sync.OnceValues(curatorLoop.Build)

func newCuratorChild(cfg Config) (driver, error) {
	classpath, err := curatorClasspath()
	if err != nil {
		return nil, fmt.Errorf("lockbench: build CuratorLoop: %w", err)
	}
	java, err := curatorLoop.Tool("java")
	if err != nil {
		return nil, fmt.Errorf("lockbench: %w", err)
	}
	args := append(append([]string(nil), jvmFlags...), "-cp", classpath, "CuratorLoop")
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
