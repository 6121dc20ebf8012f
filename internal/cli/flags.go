package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// Built-in defaults, used when neither a flag, $ZKLOCKS_SERVER nor the
// context gives a value.
const (
	defaultServer         = "127.0.0.1:2181"
	defaultTimeout        = 10 * time.Second
	defaultSessionTimeout = 10 * time.Second
)

// serverEnv names the environment variable with the default connect string.
const serverEnv = "ZKLOCKS_SERVER"

// globalFlags are the persistent flags every subcommand shares, as the
// command line gave them. Commands act on the effective settings that load
// merges from them, the environment and the config file (see configHelp
// for the precedence).
type globalFlags struct {
	server         string
	timeout        time.Duration
	sessionTimeout time.Duration
	// roots are the subtrees that commands browsing for locks (ls, the UI)
	// start from; "/" by default.
	roots []string
	// readOnly asks commands that can change ZooKeeper (release, revoke,
	// delete) to refuse to.
	readOnly bool

	auth        []string // --auth values, parsed by load
	tls         zkwatch.TLSFiles
	contextName string
	configPath  string
	logFile     string

	// watches, watchBudget and walkRate say what the watcher may cost the
	// servers (see the README's Large clusters).
	watches     string
	watchBudget int
	walkRate    int
	// persistentWatch is --persistent-watch: auto or off.
	persistentWatch string

	// admin says where the members' AdminServers are.
	admin adminFlags
	// sasl says which service principal a Kerberos login asks for.
	sasl saslConfig

	flags *pflag.FlagSet // the root's persistent flags, for Changed
}

// register adds the persistent flags to root. Defaults that depend on the environment ($XDG_*) are read
// here; $ZKLOCKS_SERVER and the config file are read by load.
func (g *globalFlags) register(root *cobra.Command) {
	configPath, _ := defaultConfigPath()
	logPath, _ := defaultLogPath()
	pf := root.PersistentFlags()
	g.flags = pf
	pf.StringVarP(&g.server, "server", "s", "", "ZooKeeper connect string, host:port[,host:port...][/chroot]\n(default the context's server, $"+serverEnv+" or "+defaultServer+"; see zklocks config --help)")
	pf.DurationVar(&g.timeout, "timeout", defaultTimeout, "how long to wait for a server to answer")
	pf.DurationVar(&g.sessionTimeout, "session-timeout", defaultSessionTimeout, "ZooKeeper session timeout to ask for")
	pf.StringVar(&g.contextName, "context", "", "named cluster from the config file (default its current-context; \"\" for none)")
	pf.StringVar(&g.configPath, "config", configPath, "config file of named clusters (see zklocks config --help)")
	pf.StringArrayVar(&g.auth, "auth", nil, "credential of the session: digest:USER:PASSWORD (addauth) or sasl:USER:PASSWORD\n(SASL DIGEST-MD5 on every connection); PASSWORD may be @FILE or env:VAR;\nor kerberos:PRINCIPAL:@KEYTAB, kerberos:PRINCIPAL (the credential cache)\n(SASL GSSAPI) (repeatable; replaces the context's)")
	pf.StringVar(&g.tls.CA, "tls-ca", "", "PEM file of the CA certificates that sign the servers' certificates (default the system's);\nany --tls-* flag connects with TLS, as the servers' secureClientPort needs")
	pf.StringVar(&g.tls.Cert, "tls-cert", "", "PEM file of the client certificate, for servers that ask for one")
	pf.StringVar(&g.tls.Key, "tls-key", "", "PEM file of the client certificate's private key")
	pf.StringVar(&g.tls.ServerName, "tls-server-name", "", "name the servers' certificates must bear (default each server's host or IP)")
	pf.StringArrayVar(&g.roots, "root", []string{"/"}, "subtree that browsing commands (ls, the UI) start from (repeatable; the context's roots when not given)")
	pf.BoolVar(&g.readOnly, "read-only", false, "refuse every change to ZooKeeper (the context's read-only when not given)")
	pf.StringVar(&g.logFile, "log-file", logPath, "where the ZooKeeper client logs (created 0600); - for stderr, \"\" for nowhere")
	pf.StringVar(&g.watches, "watches", "auto", "where waiters' watch targets come from: auto (the servers' watch table when\nthey hold at most --watch-budget watches, else recipe rules), server (always the\ntable, read no more often than its cost allows) or recipe (never the table)")
	pf.IntVar(&g.watchBudget, "watch-budget", zkwatch.DefaultWatchBudget, "most watches the servers may hold (wchs) for --watches=auto to read their table")
	pf.IntVar(&g.walkRate, "walk-rate", 2000, "reads a second the walk for locks may make past its first 2,000")
	pf.StringVar(&g.persistentWatch, "persistent-watch", "auto", "find new locks anywhere at once with one persistent recursive watch per root\n(ZooKeeper 3.6+): auto (where the server allows it) or off (dump and walk alone)")
	g.admin.register(pf)
	g.sasl.register(pf)
}

// connect loads the settings and dials the cluster they name (see dial);
// close the connection when done.
func (g *globalFlags) connect(ctx context.Context) (settings, *zkwatch.Conn, error) {
	s, err := g.load()
	if err != nil {
		return settings{}, nil, err
	}
	conn, err := s.dial(ctx)
	if err != nil {
		return settings{}, nil, err
	}
	return s, conn, nil
}

// dial connects as the settings say, waiting up to s.timeout; failures
// carry the exit code to use.
func (s settings) dial(ctx context.Context) (*zkwatch.Conn, error) {
	conn, err := s.dialUnchecked(ctx)
	if err != nil {
		return nil, err
	}
	// A server that requires SASL of a session without it says so here,
	// once, rather than a long-running command reading on regardless.
	checkCtx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := conn.Accepted(checkCtx); err != nil {
		conn.Close()
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("%s: %w", conn.Target(), err)}
	}
	return conn, nil
}

// dialUnchecked is dial without asking whether the server accepts the
// session, for doctor, which reports it.
func (s settings) dialUnchecked(ctx context.Context) (*zkwatch.Conn, error) {
	opt, err := s.options()
	if err != nil {
		var coded *exitError
		if errors.As(err, &coded) {
			return nil, err
		}
		return nil, &exitError{code: exitUsage, err: err}
	}
	dialCtx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	conn, err := zkwatch.Dial(dialCtx, opt)
	switch {
	case errors.Is(err, zkwatch.ErrRefused):
		return nil, &exitError{code: exitUnreachable, err: err}
	case errors.Is(err, zkwatch.ErrUnreachable):
		return nil, &exitError{code: exitUnreachable, err: fmt.Errorf("%w (waited %s)", err, s.timeout)}
	case errors.Is(err, sasl.ErrUnknownService):
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("%w; %s", err, s.servicePrincipalHint())}
	case err != nil:
		return nil, &exitError{code: exitFailed, err: err}
	}
	return conn, nil
}

// options turns the settings into zkwatch's, reading passwords and
// certificates. Errors name files and variables, never secrets.
func (s settings) options() (zkwatch.Options, error) {
	target, err := zkwatch.ParseConnectString(s.server)
	if err != nil {
		return zkwatch.Options{}, err
	}
	opt := zkwatch.Options{Target: target, SessionTimeout: s.sessionTimeout, Logger: s.logger()}
	for _, c := range s.auth {
		a, err := c.resolve()
		if err != nil {
			return zkwatch.Options{}, err
		}
		opt.Auth = append(opt.Auth, a)
	}
	if s.tls.Enabled() {
		if opt.TLS, err = s.tls.Config(); err != nil {
			return zkwatch.Options{}, err
		}
	}
	if opt.Admin, err = s.adminServer(); err != nil {
		return zkwatch.Options{}, err
	}
	return opt, nil
}

// logger returns where go-zookeeper logs. The file is opened for each line,
// which suits one-shot commands: nothing to log, no file; no descriptor to
// close. A long-running UI should use zkwatch.OpenLog instead.
func (s settings) logger() zk.Logger {
	switch s.logFile {
	case "":
		return nil
	case "-":
		return log.New(os.Stderr, "zk: ", log.LstdFlags|log.Lmicroseconds)
	}
	return zkwatch.NewFileLogger(s.logFile)
}

// settings is the effective configuration: each value from its flag when
// given on the command line, else from $ZKLOCKS_SERVER (server only), else
// from the context, else the built-in default. Commands pass it by value.
type settings struct {
	file    *configFile
	context string // the context applied, or ""
	skipped string // why the file's current-context was not applied, or ""

	server         string
	timeout        time.Duration
	sessionTimeout time.Duration
	roots          []string
	readOnly       bool
	// approve is the context's approve: 2 or more requires a second
	// person for destructive actions.
	approve       int
	auth          []credential
	tls           zkwatch.TLSFiles
	logFile       string
	watches       zkwatch.WatchQuery // Mode and Budget
	walkRate      int
	persistentOff bool       // --persistent-watch=off
	admin         adminFlags // merged: flag, context, environment
	sasl          saslConfig // merged: flag, context; applied to auth's kerberos credentials
	// book is the rule book: the context's and the file's recipes, then
	// the built-in ones.
	book *lockcore.Book

	// source says where each value came from: "--server", "$ZKLOCKS_SERVER",
	// "context prod" or "default", by key as config view prints it.
	source map[string]string
	// given reports whether a global flag was given on the command line
	// (by its name without dashes).
	given func(flag string) bool
}

// needsApproval says why this context's destructive actions need a
// second person, whom only zklocks serve can ask; "" when they do not.
func (s settings) needsApproval() string {
	if s.approve < 2 {
		return ""
	}
	return "context " + model.Printable(s.context) + " requires a second person's approval of force-release, revoke and fence " +
		"(approve: " + strconv.Itoa(s.approve) + "): request it in zklocks serve, where another operator approves it"
}

// readOnlyWhy says why zklocks is read-only, naming a read-only context
// as such; "" when it is not read-only.
// readOnlyByContext reports whether the context, not a flag or the
// environment, made the settings read-only.
func (s settings) readOnlyByContext() bool {
	return s.readOnly && s.context != "" && s.source["read-only"] == "context "+s.context
}

// readOnlyBadge is the UI's badge for read-only settings: a read-only
// context is named as such there too.
func (s settings) readOnlyBadge() string {
	if s.readOnlyByContext() {
		return "READ-ONLY CONTEXT"
	}
	return ""
}

func (s settings) readOnlyWhy() string {
	switch {
	case !s.readOnly:
		return ""
	case s.readOnlyByContext():
		where := "the config file"
		if s.file != nil && s.file.path != "" {
			where = s.file.path
		}
		return "context " + model.Printable(s.context) + " is read-only (read-only: true in " + model.Printable(where) +
			"; --read-only=false overrides it)"
	}
	return "started with --read-only"
}

// load merges flags, environment and config file into the effective
// settings. Its errors are usage errors and never quote a secret.
func (g *globalFlags) load() (settings, error) {
	s, err := g.merge("")
	if err != nil {
		return settings{}, &exitError{code: exitUsage, err: err}
	}
	return s, nil
}

// loadContext is load on the context name, as --context name would give,
// for the commands that go through every context (--all-contexts).
func (g *globalFlags) loadContext(name string) (settings, error) {
	s, err := g.merge(name)
	if err != nil {
		return settings{}, &exitError{code: exitUsage, err: err}
	}
	return s, nil
}

// analysis is how locks are read under these settings: by their rule
// book, and with longHeld as the long-held threshold (0: none).
func (s settings) analysis(longHeld time.Duration) lockcore.Options {
	return lockcore.Options{LongHeld: longHeld, Book: s.book}
}

// check validates the merged values that need no I/O.
func (s settings) check() error {
	if _, err := zkwatch.ParseConnectString(s.server); err != nil {
		return fmt.Errorf("%s: %w", s.source["server"], err)
	}
	if s.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, got %s", s.timeout)
	}
	if s.sessionTimeout <= 0 {
		return fmt.Errorf("--session-timeout must be positive, got %s", s.sessionTimeout)
	}
	if len(s.roots) == 0 {
		return errors.New("--root needs at least one path")
	}
	if s.watches.Budget <= 0 || s.walkRate <= 0 {
		return fmt.Errorf("--watch-budget and --walk-rate must be positive, got %d and %d", s.watches.Budget, s.walkRate)
	}
	for _, r := range s.roots {
		if err := zkwatch.ValidatePath(r); err != nil {
			return fmt.Errorf("%s: root: %w", s.source["roots"], err)
		}
	}
	return s.checkAdmin()
}

// watchConfig is the watcher's configuration for the settings' roots,
// watch mode and walk rate.
func (s settings) watchConfig() zkwatch.WatchConfig {
	return zkwatch.WatchConfig{Roots: s.roots, WatchMode: s.watches.Mode, WatchBudget: s.watches.Budget, WalkRate: s.walkRate,
		PersistentWatchOff: s.persistentOff, Analysis: s.analysis(0)}
}
