package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/sasl"
	"gopkg.in/yaml.v3"
)

// configFile is the YAML file of named clusters, by default
// $XDG_CONFIG_HOME/zklocks/config.yaml:
//
//	current-context: prod
//	contexts:
//	  prod:
//	    server: zk1:2181,zk2:2181/app
//	    roots: [/locks]
//	    auth:
//	      - {scheme: digest, user: ops, password-env: ZK_PASS}
//	    tls: {ca: ca.pem, cert: client.pem, key: client-key.pem}
//	    read-only: true
//	    session-timeout: 10s
//	    recipes: [ … ]   # this cluster's own lock recipes
//	recipes: [ … ]       # lock recipes for every cluster (docs/rulebook.md)
//	serve:
//	  listen: 0.0.0.0:2222
//	  authorized-keys: /etc/zklocks/authorized_keys
//	  host-key: /var/lib/zklocks/ssh_host_ed25519_key
//	  contexts: [prod, staging]
type configFile struct {
	CurrentContext string                   `yaml:"current-context"`
	Contexts       map[string]contextConfig `yaml:"contexts"`
	// Serve configures zklocks serve (see serveConfig).
	Serve serveConfig `yaml:"serve"`
	// Recipes are the user's rule book entries for every context.
	Recipes recipeList `yaml:"recipes"`

	path  string // where it was read from, or would be
	found bool   // whether the file exists
}

// contextConfig is one named cluster. Zero values mean "not set".
type contextConfig struct {
	Server string       `yaml:"server"`
	Roots  []string     `yaml:"roots"`
	Auth   []authConfig `yaml:"auth"`
	TLS    tlsConfig    `yaml:"tls"`
	// SASL names the servers' Kerberos principal (see saslConfig).
	SASL     saslConfig `yaml:"sasl"`
	ReadOnly *bool      `yaml:"read-only"`
	// Approve, 2, requires a second person's approval of every
	// force-release, revoke and fence (given under zklocks serve; the
	// command line and the local UI refuse them).
	Approve        int           `yaml:"approve"`
	Timeout        time.Duration `yaml:"timeout"`
	SessionTimeout time.Duration `yaml:"session-timeout"`
	// Admin says where the cluster's AdminServers listen.
	Admin adminFlags `yaml:"admin"`
	// Check holds zklocks check's thresholds for this cluster.
	Check checkConfig `yaml:"check"`
	// Recipes are this cluster's own rule book entries, read before the
	// global ones; one of the same name replaces the global one.
	Recipes recipeList `yaml:"recipes"`
}

// checkConfig is a context's thresholds for zklocks check; zero values
// and absent lists mean "not set" (flags, then built-in defaults, apply).
type checkConfig struct {
	WarnHeld    time.Duration `yaml:"warn-held"`
	CritHeld    time.Duration `yaml:"crit-held"`
	WarnWaiters int           `yaml:"warn-waiters"`
	CritWaiters int           `yaml:"crit-waiters"`
	WarnWait    time.Duration `yaml:"warn-wait"`
	CritWait    time.Duration `yaml:"crit-wait"`
	// Critical and Warning are anomaly kinds; an empty list given as []
	// means none.
	Critical *[]string `yaml:"critical"`
	Warning  *[]string `yaml:"warning"`
}

// authConfig is one credential of a context; exactly one of the password
// fields is set, but for scheme kerberos, which takes a keytab or none
// (the credential cache).
type authConfig struct {
	Scheme       string `yaml:"scheme"`
	User         string `yaml:"user"`
	Password     string `yaml:"password"`
	PasswordEnv  string `yaml:"password-env"`
	PasswordFile string `yaml:"password-file"`
	Keytab       string `yaml:"keytab"`
}

// tlsConfig names a context's PEM files.
type tlsConfig struct {
	CA         string `yaml:"ca"`
	Cert       string `yaml:"cert"`
	Key        string `yaml:"key"`
	ServerName string `yaml:"server-name"`
}

// defaultConfigPath is $XDG_CONFIG_HOME/zklocks/config.yaml, or
// ~/.config/zklocks/config.yaml when XDG_CONFIG_HOME is unset or relative.
func defaultConfigPath() (string, error) {
	return xdgPath("XDG_CONFIG_HOME", ".config", "config.yaml")
}

// defaultLogPath is $XDG_STATE_HOME/zklocks/zklocks.log, or
// ~/.local/state/zklocks/zklocks.log.
func defaultLogPath() (string, error) {
	return xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "zklocks.log")
}

// xdgPath follows the XDG base directory rules: env if absolute, else
// fallback under the home directory.
func xdgPath(env, fallback, name string) (string, error) {
	base := os.Getenv(env)
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("neither $%s nor a home directory: %w", env, err)
		}
		base = filepath.Join(home, fallback)
	}
	return filepath.Join(base, "zklocks", name), nil
}

// readConfig reads the config file at path. A missing file is an empty
// configuration unless mustExist (the path was given with --config). Errors
// name the file and field, never a value.
func readConfig(path string, mustExist bool) (*configFile, error) {
	cf := &configFile{path: path}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !mustExist:
		return cf, nil
	case err != nil:
		return nil, fmt.Errorf("config: %w", err)
	}
	cf.found = true
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(cf); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if cf.CurrentContext != "" {
		if _, ok := cf.Contexts[cf.CurrentContext]; !ok {
			return nil, fmt.Errorf("config %s: current-context %q is not among the contexts", path, cf.CurrentContext)
		}
	}
	for _, name := range cf.names() {
		if err := cf.Contexts[name].validate(); err != nil {
			return nil, fmt.Errorf("config %s: context %q: %w", path, name, err)
		}
	}
	if err := cf.checkRecipes(); err != nil {
		return nil, err
	}
	return cf, nil
}

// names returns the context names in order.
func (cf *configFile) names() []string {
	names := make([]string, 0, len(cf.Contexts))
	for n := range cf.Contexts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// context returns the named context with its relative file names (TLS
// and AdminServer files, password files, keytabs) resolved against the
// config file's directory, as kubeconfig resolves its own: the file means
// the same wherever zklocks runs. A file on the command line (--tls-ca,
// @FILE) is the working directory's, as a shell's argument is.
func (cf *configFile) context(name string) (contextConfig, error) {
	c, ok := cf.Contexts[name]
	if !ok {
		if len(cf.Contexts) == 0 {
			return contextConfig{}, fmt.Errorf("no context %q: %s defines none", name, cf.path)
		}
		return contextConfig{}, fmt.Errorf("no context %q in %s (there are: %v)", name, cf.path, cf.names())
	}
	dir := filepath.Dir(cf.path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	c.TLS.CA, c.TLS.Cert, c.TLS.Key = rel(c.TLS.CA), rel(c.TLS.Cert), rel(c.TLS.Key)
	c.Admin.CA = rel(c.Admin.CA)
	auth := make([]authConfig, len(c.Auth))
	for i, a := range c.Auth {
		a.PasswordFile, a.Keytab = rel(a.PasswordFile), rel(a.Keytab)
		auth[i] = a
	}
	c.Auth = auth
	return c, nil
}

// validate checks what can be checked without reading secrets.
func (c contextConfig) validate() error {
	if c.Server == "" {
		return errors.New("no server")
	}
	if c.Timeout < 0 || c.SessionTimeout < 0 {
		return errors.New("timeouts must be positive")
	}
	for i, a := range c.Auth {
		if err := a.validate(); err != nil {
			return fmt.Errorf("auth[%d]: %w", i, err)
		}
	}
	if err := c.Check.validate(); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if err := c.validateSASL(); err != nil {
		return fmt.Errorf("sasl: %w", err)
	}
	return nil
}

func (a authConfig) validate() error {
	if a.Scheme == kerberosScheme {
		return a.validateKerberos()
	}
	if a.Keytab != "" {
		return fmt.Errorf("keytab is for scheme %s", kerberosScheme)
	}
	if _, ok := zkwatch.LookupAuthScheme(a.scheme()); !ok {
		return fmt.Errorf("scheme %q: not one of %s, %s", a.Scheme, strings.Join(zkwatch.AuthSchemes(), ", "), kerberosScheme)
	}
	if a.User == "" {
		return errors.New("no user")
	}
	n := 0
	for _, s := range []string{a.Password, a.PasswordEnv, a.PasswordFile} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return errors.New("needs exactly one of password, password-env, password-file")
	}
	return nil
}

// scheme is the entry's scheme, digest when none is given.
func (a authConfig) scheme() string {
	if a.Scheme == "" {
		return "digest"
	}
	return a.Scheme
}

// credential turns a context's auth entry into the form flags give.
func (a authConfig) credential(origin string) credential {
	if a.Scheme == kerberosScheme {
		cfg := sasl.KerberosConfig{Principal: a.User, Keytab: a.Keytab}
		return credential{scheme: kerberosScheme, user: a.User, kerberos: &cfg, origin: origin}
	}
	return credential{scheme: a.scheme(), user: a.User, password: a.Password,
		env: a.PasswordEnv, file: a.PasswordFile, origin: origin}
}

// credential is a credential of one of zkwatch's auth schemes (digest,
// sasl) whose password is given literally, or read from an environment
// variable or a file when the session starts.
type credential struct {
	scheme, user string
	password     string // literal; never printed
	env          string // name of the variable holding the password
	file         string // file holding the password; a final newline is dropped
	origin       string // "--auth" or "context NAME", for messages
	// kerberos is a Kerberos login's configuration, for scheme kerberos
	// (which has no password).
	kerberos *sasl.KerberosConfig
}

// parseAuthFlag reads an --auth value: SCHEME:USER:PASSWORD,
// SCHEME:USER:@FILE or SCHEME:USER:env:VAR, SCHEME one of zkwatch's auth
// schemes (digest, sasl). Its errors never quote the value, which holds a
// password.
func parseAuthFlag(v string) (credential, error) {
	if rest, ok := strings.CutPrefix(v, kerberosScheme+":"); ok {
		return parseKerberosFlag(rest)
	}
	scheme, rest, ok := strings.Cut(v, ":")
	if _, known := zkwatch.LookupAuthScheme(scheme); !ok || !known {
		return credential{}, fmt.Errorf("want SCHEME:USER:PASSWORD, SCHEME:USER:@FILE or SCHEME:USER:env:VAR, SCHEME one of %s; or kerberos:PRINCIPAL[:@KEYTAB]",
			strings.Join(zkwatch.AuthSchemes(), ", "))
	}
	user, pw, ok := strings.Cut(rest, ":")
	if !ok || user == "" || pw == "" {
		return credential{}, fmt.Errorf("want %s:USER:PASSWORD with a non-empty user and password", scheme)
	}
	c := credential{scheme: scheme, user: user, origin: "--auth"}
	switch {
	case strings.HasPrefix(pw, "@") && len(pw) > 1:
		c.file = pw[1:]
	case strings.HasPrefix(pw, "env:") && len(pw) > 4:
		c.env = pw[4:]
	default:
		c.password = pw
	}
	return c, nil
}

// resolve reads the password and returns the credential for the session.
// Errors name the variable or file, never the password.
func (c credential) resolve() (zkwatch.Auth, error) {
	if c.kerberos != nil {
		return c.resolveKerberos()
	}
	pw := c.password
	switch {
	case c.env != "":
		v, ok := os.LookupEnv(c.env)
		if !ok || v == "" {
			return zkwatch.Auth{}, fmt.Errorf("%s: password variable $%s is not set", c.origin, c.env)
		}
		pw = v
	case c.file != "":
		v, err := readPasswordFile(c.file)
		if err != nil {
			return zkwatch.Auth{}, fmt.Errorf("%s: %w", c.origin, err)
		}
		pw = v
	}
	scheme, ok := zkwatch.LookupAuthScheme(c.scheme)
	if !ok {
		return zkwatch.Auth{}, fmt.Errorf("%s: unknown auth scheme %q", c.origin, c.scheme)
	}
	return scheme.New(c.user, []byte(pw)), nil
}

// readPasswordFile reads a password file, refusing one that every user of
// the machine may read: the password is no secret there. A final newline
// is dropped.
func readPasswordFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o007 != 0 {
		return "", fmt.Errorf("password file %s is open to every user of this machine (mode %04o): chmod 600 it", path, perm)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPasswordFile+1))
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if len(b) > maxPasswordFile {
		return "", fmt.Errorf("password file %s holds more than %d bytes: not a password", path, maxPasswordFile)
	}
	pw := strings.TrimRight(string(b), "\r\n")
	if pw == "" {
		return "", fmt.Errorf("password file %s is empty", path)
	}
	return pw, nil
}

// maxPasswordFile bounds what is read of a password file.
const maxPasswordFile = 4096
