package zktest

import (
	"os"
	"strings"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// Option changes how [Start] or [StartEnsemble] configures a server.
type Option func(*config)

// config is what the options collect.
type config struct {
	lines    []string // extra zoo.cfg lines, appended after the defaults
	jvmFlags []string // extra JVM arguments, before the main class
	words    string   // 4lw.commands.whitelist
	// memberWords overrides words for the ensemble members it names, by
	// myid.
	memberWords map[int]string
	admin       bool // the AdminServer on
	// noClientAddrs leaves the client address out of the ensemble's
	// server.N lines (a static configuration's clientPort only).
	noClientAddrs bool
}

func newConfig(opts []Option) config {
	c := config{words: "*"}
	for _, opt := range opts {
		opt(&c)
	}
	return c
}

// WithConfig appends lines to zoo.cfg, after the defaults this package writes.
// ZooKeeper reads zoo.cfg as Java properties, where the last value of a key
// wins, so a line can also override a default (for example "tickTime=2000").
// Use it for authProvider.N, secureClientPort, quotas and the like.
func WithConfig(lines ...string) Option {
	return func(c *config) { c.lines = append(c.lines, lines...) }
}

// WithJVMFlags adds arguments to the java command line, such as
// "-Djava.security.auth.login.config=/path/jaas.conf" for SASL or the
// zookeeper.ssl.* system properties for TLS.
func WithJVMFlags(flags ...string) Option {
	return func(c *config) { c.jvmFlags = append(c.jvmFlags, flags...) }
}

// WithFourLetterWords sets 4lw.commands.whitelist, a comma-separated list
// such as "srvr,cons" ("*" allows all, the default). srvr is always added
// because the helpers use it to tell when a server is ready; to watch a word
// be refused, leave out any other word.
func WithFourLetterWords(list string) Option {
	return func(c *config) { c.words = list }
}

// WithMemberFourLetterWords sets the whitelist of one ensemble member, the
// one with myid id, as WithFourLetterWords does for all of them: an
// ensemble whose members disagree, as one restarted with an older
// configuration does. [Start] ignores it.
func WithMemberFourLetterWords(id int, list string) Option {
	return func(c *config) {
		if c.memberWords == nil {
			c.memberWords = map[int]string{}
		}
		c.memberWords[id] = list
	}
}

// WithAdminServer turns each server's AdminServer on, on a free loopback
// port of its own (Server.AdminPort); the servlet API it needs on Debian is
// added to the class path. Without it a server has no AdminServer. Over
// HTTPS, add WithConfig("admin.forceHttps=true", and the
// ssl.quorum.keyStore.* lines), which AdminHTTPS makes.
func WithAdminServer() Option {
	return func(c *config) { c.admin = true }
}

// WithoutClientAddresses writes an ensemble's server.N lines without their
// client address, as a static configuration does: /zookeeper/config then
// does not say where each member takes clients.
func WithoutClientAddresses() Option {
	return func(c *config) { c.noClientAddrs = true }
}

// whitelist returns the configured words with srvr guaranteed to be present.
func (c config) whitelist() string {
	if c.words == "*" {
		return c.words
	}
	for _, w := range strings.Split(c.words, ",") {
		if w = strings.TrimSpace(w); w == "srvr" || w == "*" {
			return c.words
		}
	}
	if strings.TrimSpace(c.words) == "" {
		return "srvr"
	}
	return c.words + ",srvr"
}

// member returns the configuration of ensemble member id: its own
// whitelist where WithMemberFourLetterWords gave one.
func (c config) member(id int) config {
	if w, ok := c.memberWords[id]; ok {
		c.words = w
	}
	return c
}

// server turns the options into zkserver's configuration for a server in
// dir, with the jars from jarDir. Every test server maps the class archive
// kept in the temporary directory (made by the first start of a run that
// finds none, and kept for later runs while the installation is the same):
// the suite starts hundreds of JVMs on two cores.
func (c config) server(jarDir, dir string) zkserver.Config {
	return zkserver.Config{JarDir: jarDir, Dir: dir, Lines: c.lines, JVMFlags: c.jvmFlags, FourLetterWords: c.whitelist(), Admin: c.admin,
		ClassArchiveDir: os.TempDir()}
}
