package peers

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/javabuild"
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

// javaPeers are the Java peers' build.
var javaPeers = javabuild.JavaBuild{Name: "peers", JarDir: jarDir, Jars: jars, InstallHint: installHint}

// javaClasspath compiles the Java peers once per test binary.
var javaClasspath = sync.OnceValues(func() (string, error) {
	b := javaPeers
	b.Sources = map[string][]byte{}
	names, err := fs.Glob(javaSources, "java/*.java")
	if err != nil {
		return "", err
	}
	for _, name := range names {
		src, _ := javaSources.ReadFile(name)
		b.Sources[path.Base(name)] = src
	}
	return b.Build()
})

// startJava runs kind's Java peer.
func startJava(t testing.TB, kind Kind, connect string, o options, handle func(string), logf func(string, ...any), end func(error)) (backend, error) {
	classpath, err := javaClasspath()
	if err != nil {
		return nil, err
	}
	java, err := javaPeers.Tool("java")
	if err != nil {
		return nil, err
	}
	saslFlags, err := o.jvmFlags(t)
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), jvmFlags...), archiveFlags(java, classpath)...)
	args = append(append(append(args, saslFlags...), o.extraJVMFlags...), "-cp", classpath, mainClass[kind], connect)
	return startChild(java, args, o.env(), handle, logf, end)
}

// startKazoo runs the kazoo peer from a copy of its script in a temporary
// directory of t.
func startKazoo(t testing.TB, connect string, o options, handle func(string), logf func(string, ...any), end func(error)) (backend, error) {
	if err := checkKazoo(python); err != nil {
		return nil, err
	}
	script := filepath.Join(t.TempDir(), "kazoo_peer.py")
	if err := os.WriteFile(script, kazooSource, 0o644); err != nil {
		return nil, err
	}
	return startChild(python, []string{"-u", script, connect}, o.env(), handle, logf, end)
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
