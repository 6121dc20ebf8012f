package zkserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// InstallHint is the command that installs java and the ZooKeeper jars.
const InstallHint = "apt-get install -y zookeeper default-jre-headless"

// DefaultJarDir is where Debian installs ZooKeeper and its dependencies.
const DefaultJarDir = "/usr/share/java"

// mainClass runs a standalone server or a quorum member, depending on the
// configuration it is given.
const mainClass = "org.apache.zookeeper.server.quorum.QuorumPeerMain"

// jars are what the server needs on its class path. zookeeper.jar's manifest
// names its other dependencies (netty, jute, metrics, ...); slf4j-simple is
// the logging backend, writing to stderr, which goes to the log file.
var jars = []string{"zookeeper.jar", "zookeeper-jute.jar", "slf4j-api.jar", "slf4j-simple.jar"}

// baseJVMFlags keep the JVM small and quick to start on a busy machine.
var baseJVMFlags = []string{
	"-Xms32m", "-Xmx256m",
	"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
	"-Djava.awt.headless=true",
	"-Dzookeeper.jmx.log4j.disable=true",
	"-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
	"-Dorg.slf4j.simpleLogger.showDateTime=true",
	"-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
}

// jvm is a java binary and the class path to run ZooKeeper with.
type jvm struct {
	java      string
	classpath string
}

// findJVM locates java and the ZooKeeper jars in jarDir. Its error wraps
// ErrNotInstalled and names what is missing.
func findJVM(jarDir string) (jvm, error) {
	java, err := JDKTool("java")
	if err != nil {
		return jvm{}, fmt.Errorf("%w: java not found (%v); install it and ZooKeeper with: %s", ErrNotInstalled, err, InstallHint)
	}
	var paths, missing []string
	for _, j := range jars {
		p := filepath.Join(jarDir, j)
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
		paths = append(paths, p)
	}
	if len(missing) > 0 {
		return jvm{}, fmt.Errorf("%w: ZooKeeper jars not found: %s; install them with: %s",
			ErrNotInstalled, strings.Join(missing, ", "), InstallHint)
	}
	return jvm{java: java, classpath: strings.Join(paths, string(os.PathListSeparator))}, nil
}

// JDKTool finds a JDK program (java, javac): in $JAVA_HOME/bin, else on
// PATH.
func JDKTool(name string) (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrDot) {
		err = nil
	}
	return p, err
}

// args is the java command line that runs the server configured by cfgPath.
func (j jvm) args(jvmFlags []string, cfgPath string) []string {
	args := append([]string(nil), baseJVMFlags...)
	args = append(args, jvmFlags...)
	return append(args, "-cp", j.classpath, mainClass, cfgPath)
}

// servletAPIJar is what Debian's Jetty needs for the AdminServer and its
// zookeeper.jar does not name; ServletHint installs it.
const (
	servletAPIJar = "servlet-api.jar"
	ServletHint   = "apt-get install -y libservlet-api-java"
)

// withServletAPI adds the servlet API to the class path, for the
// AdminServer.
func (j jvm) withServletAPI(jarDir string) (jvm, error) {
	p := filepath.Join(jarDir, servletAPIJar)
	if _, err := os.Stat(p); err != nil {
		return j, fmt.Errorf("%w: %s not found (the AdminServer needs it); install it with: %s", ErrNotInstalled, p, ServletHint)
	}
	j.classpath += string(os.PathListSeparator) + p
	return j, nil
}

// zooCfg is the content of zoo.cfg for a server whose data lives in dataDir
// and who listens for clients on 127.0.0.1:clientPort, and for AdminServer
// requests on 127.0.0.1:adminPort unless that is 0.
func zooCfg(cfg Config, dataDir string, clientPort, adminPort int) string {
	admin := []string{"admin.enableServer=false"}
	if adminPort != 0 {
		admin = []string{"admin.enableServer=true", "admin.serverAddress=127.0.0.1", fmt.Sprintf("admin.serverPort=%d", adminPort)}
	}
	lines := []string{
		"tickTime=500",
		"initLimit=20",
		"syncLimit=10",
		"dataDir=" + dataDir,
		fmt.Sprintf("clientPort=%d", clientPort),
		"clientPortAddress=127.0.0.1",
		"maxClientCnxns=0",
		"forceSync=no",
		"4lw.commands.whitelist=" + Whitelist(cfg.FourLetterWords),
	}
	lines = append(lines, admin...)
	lines = append(lines, cfg.Peers...)
	if len(cfg.Peers) == 1 {
		// A one-member ensemble is still a quorum, not a standalone server.
		lines = append(lines, "standaloneEnabled=false")
	}
	lines = append(lines, cfg.Lines...)
	return strings.Join(lines, "\n") + "\n"
}

// Whitelist returns the 4lw.commands.whitelist value for words: "" means
// every word ("*"), and srvr is added when missing, because this package
// asks srvr whether the server is ready.
func Whitelist(words string) string {
	if strings.TrimSpace(words) == "" || words == "*" {
		return "*"
	}
	for _, w := range strings.Split(words, ",") {
		if w = strings.TrimSpace(w); w == "srvr" || w == "*" {
			return words
		}
	}
	return words + ",srvr"
}
