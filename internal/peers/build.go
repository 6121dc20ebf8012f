package peers

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// installHint is the command that provides the peers' clients.
const installHint = "apt-get install -y zookeeper python3-kazoo libcurator-recipes-java"

// jarDir is where Debian installs the jars.
const jarDir = "/usr/share/java"

// python is Debian's python3, which has python3-kazoo. (A python3 earlier on
// PATH, from pyenv say, usually does not.)
const python = "/usr/bin/python3"

// jars are what the Java peers compile and run against. The ZooKeeper client
// uses NIO by default, so no netty.
var jars = []string{
	"curator-client.jar", "curator-framework.jar", "curator-recipes.jar",
	"zookeeper.jar", "zookeeper-jute.jar", "zookeeper-recipes-lock.jar", "zookeeper-recipes-election.jar",
	"guava.jar", "slf4j-api.jar", "slf4j-nop.jar",
}

// jvmFlags keep each peer JVM small: the test machine has two cores.
var jvmFlags = []string{"-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"}

// mainClass is each Java kind's program.
var mainClass = map[Kind]string{Curator: "CuratorPeer", ZkRecipe: "ZkRecipePeer"}

//go:embed java/*.java
var javaSources embed.FS

//go:embed python/kazoo_peer.py
var kazooSource []byte

// javaBuild compiles the Java peers once per test binary.
var javaBuild struct {
	once      sync.Once
	classpath string // compiled classes, then the jars
	err       error
}

// startJava runs kind's Java peer.
func startJava(kind Kind, connect string, handle func(string), logf func(string, ...any), end func(error)) (backend, error) {
	javaBuild.once.Do(func() { javaBuild.classpath, javaBuild.err = buildJava() })
	if javaBuild.err != nil {
		return nil, javaBuild.err
	}
	java, err := jdkTool("java")
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), jvmFlags...), "-cp", javaBuild.classpath, mainClass[kind], connect)
	return startChild(java, args, handle, logf, end)
}

// startKazoo runs the kazoo peer from a copy of its script in a temporary
// directory of t.
func startKazoo(t testing.TB, connect string, handle func(string), logf func(string, ...any), end func(error)) (backend, error) {
	if err := checkKazoo(python); err != nil {
		return nil, err
	}
	script := filepath.Join(t.TempDir(), "kazoo_peer.py")
	if err := os.WriteFile(script, kazooSource, 0o644); err != nil {
		return nil, err
	}
	return startChild(python, []string{"-u", script, connect}, handle, logf, end)
}

// checkKazoo returns an error that says how to install kazoo unless python
// can import it.
func checkKazoo(python string) error {
	out, err := exec.Command(python, "-c", "import kazoo").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s cannot import kazoo (%v: %s); install it with: %s",
			python, err, strings.TrimSpace(string(out)), installHint)
	}
	return nil
}

// findJars returns the paths of jars in dir, and writes the files they
// resolve to (their versions) to sum. Its error says how to install them.
func findJars(dir string, sum io.Writer) ([]string, error) {
	var paths, missing []string
	for _, jar := range jars {
		p := filepath.Join(dir, jar)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			missing = append(missing, p)
		}
		paths = append(paths, p)
		fmt.Fprintf(sum, "%s\n", real)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("jars not found: %s; install them with: %s", strings.Join(missing, ", "), installHint)
	}
	return paths, nil
}

// buildJava compiles the Java peers into os.TempDir()/zklocks-peers-HASH,
// unless an earlier test binary already has, and returns the class path to
// run them with. The directory is filled under a temporary name and renamed
// into place, so concurrent test binaries never see half a build.
func buildJava() (string, error) {
	javac, err := jdkTool("javac")
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	paths, err := findJars(jarDir, sum)
	if err != nil {
		return "", err
	}
	jarPath := strings.Join(paths, string(os.PathListSeparator))
	sources, err := fs.Glob(javaSources, "java/*.java")
	if err != nil {
		return "", err
	}
	for _, name := range sources {
		b, _ := javaSources.ReadFile(name)
		fmt.Fprintf(sum, "%s %d\n%s", name, len(b), b)
	}
	dir := filepath.Join(os.TempDir(), "zklocks-peers-"+hex.EncodeToString(sum.Sum(nil))[:16])
	classpath := dir + string(os.PathListSeparator) + jarPath
	if built(dir) {
		return classpath, nil
	}

	tmp, err := os.MkdirTemp(os.TempDir(), "zklocks-peers-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src, classes := filepath.Join(tmp, "src"), filepath.Join(tmp, "classes")
	args := []string{"-nowarn", "-implicit:none", "-sourcepath", "", "-d", classes, "-cp", jarPath}
	for _, name := range sources {
		b, _ := javaSources.ReadFile(name)
		p := filepath.Join(src, filepath.Base(name))
		if err := os.MkdirAll(src, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
		args = append(args, p)
	}
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("javac: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(classes, "ok"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(classes, dir); err != nil && !built(dir) {
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

// built reports whether dir holds a complete build.
func built(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "ok"))
	return err == nil
}

// jdkTool finds java or javac, failing with the command that installs
// what the clients need.
func jdkTool(name string) (string, error) {
	p, err := zkserver.JDKTool(name)
	if err != nil {
		return "", fmt.Errorf("%s not found (%v); install a JDK (default-jdk-headless) and the clients with: %s",
			name, err, installHint)
	}
	return p, nil
}
