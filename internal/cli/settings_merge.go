package cli

import (
	"fmt"
	"os"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// merge merges flags, environment and file, on the context named by
// onContext when it is not "": each setting from its flag when given,
// else the context, else the environment or the default, its source
// recorded beside it.
func (g *globalFlags) merge(onContext string) (settings, error) {
	cf := &configFile{path: g.configPath}
	if g.configPath != "" {
		var err error
		if cf, err = readConfig(g.configPath, g.flags.Changed("config")); err != nil {
			return settings{}, err
		}
	}
	s := settings{file: cf, source: map[string]string{}, given: g.flags.Changed}
	env := os.Getenv(serverEnv)
	s.pickContext(g, onContext, env)
	var ctx contextConfig
	if s.context != "" {
		var err error
		if ctx, err = cf.context(s.context); err != nil {
			return settings{}, err
		}
	}
	s.mergeServer(g.server, ctx.Server, env)
	if err := s.mergeSession(g, ctx); err != nil {
		return settings{}, err
	}
	if err := s.mergeAuth(g.auth, ctx.Auth); err != nil {
		return settings{}, err
	}
	s.mergeTLS(g.tls, ctx.TLS)
	if err := s.mergeWatching(g); err != nil {
		return settings{}, err
	}
	s.mergeAdmin(g.admin, ctx.Admin)
	if err := s.mergeSASL(g.sasl, ctx.SASL); err != nil {
		return settings{}, err
	}
	var err error
	if s.book, err = cf.book(s.context); err != nil {
		return settings{}, fmt.Errorf("config %s: %w", cf.path, err)
	}
	return s, s.check()
}

// inContext is the context as a setting's source.
func (s *settings) inContext() string { return "context " + s.context }

// from records where key's value comes from: its flag if given, else the
// context if the value is set there (setInContext), else the default;
// and returns that source.
func (s *settings) from(key, flag string, setInContext bool) string {
	switch {
	case s.given(flag):
		s.source[key] = "--" + flag
	case setInContext && s.context != "":
		s.source[key] = s.inContext()
	default:
		s.source[key] = "default"
	}
	return s.source[key]
}

// fromContext is from, reporting whether the value is the context's.
func (s *settings) fromContext(key, flag string, setInContext bool) bool {
	return s.from(key, flag, setInContext) == s.inContext()
}

// pickContext names the context the settings are read from: the one
// asked for (--all-contexts' onContext, --context), else the config
// file's current-context unless --server or $ZKLOCKS_SERVER (env) says
// where to connect, which is then recorded as why it was skipped.
func (s *settings) pickContext(g *globalFlags, onContext, env string) {
	switch {
	case onContext != "":
		s.context, s.source["context"] = onContext, "--all-contexts"
	case s.given("context"):
		s.context, s.source["context"] = g.contextName, "--context"
	case s.file.CurrentContext == "":
	case s.given("server"):
		s.skipped = "--server is given"
	case env != "":
		s.skipped = "$" + serverEnv + " is set"
	default:
		s.context, s.source["context"] = s.file.CurrentContext, "current-context"
	}
}

// mergeServer sets the connect string: --server, else the context's,
// else $ZKLOCKS_SERVER (env), else the default.
func (s *settings) mergeServer(flag, inCtx, env string) {
	switch {
	case s.given("server"):
		s.server, s.source["server"] = flag, "--server"
	case inCtx != "":
		s.server, s.source["server"] = inCtx, s.inContext()
	case env != "":
		s.server, s.source["server"] = env, "$"+serverEnv
	default:
		s.server, s.source["server"] = defaultServer, "default"
	}
}

// mergeSession sets the timeouts, the roots, read-only and the
// two-person rule. Flags not given hold their defaults, so only the
// context is left to apply.
func (s *settings) mergeSession(g *globalFlags, ctx contextConfig) error {
	s.timeout, s.sessionTimeout, s.roots, s.readOnly = g.timeout, g.sessionTimeout, g.roots, g.readOnly
	if s.fromContext("timeout", "timeout", ctx.Timeout != 0) {
		s.timeout = ctx.Timeout
	}
	if s.fromContext("session-timeout", "session-timeout", ctx.SessionTimeout != 0) {
		s.sessionTimeout = ctx.SessionTimeout
	}
	if s.fromContext("roots", "root", len(ctx.Roots) > 0) {
		s.roots = ctx.Roots
	}
	if s.fromContext("read-only", "read-only", ctx.ReadOnly != nil) {
		s.readOnly = *ctx.ReadOnly
	}
	if ctx.Approve < 0 || ctx.Approve > 2 {
		return fmt.Errorf("context %s: approve: %d: 2 requires a second person's approval, 0 or 1 (the default) does not", model.Printable(s.context), ctx.Approve)
	}
	s.approve = ctx.Approve
	return nil
}

// mergeAuth sets the credentials: every --auth given, else the context's.
func (s *settings) mergeAuth(flags []string, inCtx []authConfig) error {
	if s.from("auth", "auth", len(inCtx) > 0) != "--auth" {
		for _, a := range inCtx {
			s.auth = append(s.auth, a.credential(s.inContext()))
		}
		return nil
	}
	for i, v := range flags {
		c, err := parseAuthFlag(v)
		if err != nil {
			return fmt.Errorf("--auth #%d: %w", i+1, err)
		}
		s.auth = append(s.auth, c)
	}
	return nil
}

// mergeTLS sets each TLS file and the server name: its flag's when
// given, else the context's.
func (s *settings) mergeTLS(flags zkwatch.TLSFiles, inCtx tlsConfig) {
	s.tls = zkwatch.TLSFiles{CA: inCtx.CA, Cert: inCtx.Cert, Key: inCtx.Key, ServerName: inCtx.ServerName}
	for _, f := range []struct {
		key, flag, val, ctx string
		dst                 *string
	}{
		{"tls.ca", "tls-ca", flags.CA, inCtx.CA, &s.tls.CA},
		{"tls.cert", "tls-cert", flags.Cert, inCtx.Cert, &s.tls.Cert},
		{"tls.key", "tls-key", flags.Key, inCtx.Key, &s.tls.Key},
		{"tls.server-name", "tls-server-name", flags.ServerName, inCtx.ServerName, &s.tls.ServerName},
	} {
		if s.from(f.key, f.flag, f.ctx != "") == "--"+f.flag {
			*f.dst = f.val
		}
	}
}

// mergeWatching sets what only flags give: the log file, the watch
// query, the walk's rate and whether the persistent watch is off.
func (s *settings) mergeWatching(g *globalFlags) error {
	s.logFile = g.logFile
	s.from("log-file", "log-file", false)
	mode, err := zkwatch.ParseWatchMode(g.watches)
	if err != nil {
		return err
	}
	s.watches, s.walkRate = zkwatch.WatchQuery{Mode: mode, Budget: g.watchBudget}, g.walkRate
	switch g.persistentWatch {
	case "auto":
	case "off":
		s.persistentOff = true
	default:
		return fmt.Errorf("--persistent-watch must be auto or off, got %q", g.persistentWatch)
	}
	return nil
}
