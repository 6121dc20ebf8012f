package cli

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/internal/serve"
	"golang.org/x/crypto/ssh"
)

// Defaults of zklocks serve, when neither a flag nor the config file's
// serve section gives a value.
const (
	defaultServeListen      = ":2222"
	defaultServeMaxSessions = 50
	defaultServeIdle        = 30 * time.Minute
	defaultServeLinger      = time.Minute
	defaultApproveWithin    = 10 * time.Minute
	defaultRecordMaxSize    = capValue(64 << 20)
	defaultRecordMaxAge     = ageValue(90 * 24 * time.Hour)
)

// serveConfig is the config file's serve section; zero values mean "not
// set". Relative file names are relative to the config file.
type serveConfig struct {
	Listen         string        `yaml:"listen"`
	AuthorizedKeys string        `yaml:"authorized-keys"`
	RevokedKeys    string        `yaml:"revoked-keys"`
	HostKey        string        `yaml:"host-key"`
	Contexts       []string      `yaml:"contexts"`
	MaxSessions    int           `yaml:"max-sessions"`
	IdleTimeout    time.Duration `yaml:"idle-timeout"`
	Linger         time.Duration `yaml:"linger"`
	// ApproveWithin is how long a request waits for a second person's
	// approval, on contexts with approve: 2.
	ApproveWithin time.Duration `yaml:"approve-within"`
	// RecordSessions is where every session's screen is recorded
	// (asciicast v2); "" records nothing. RecordMaxSize (a size, or off)
	// caps each recording, RecordMaxAge (an age, or off) deletes older
	// ones.
	// MaxStartups and PerSourceMaxStartups bound the connections not
	// signed in yet, in all and from one address; LoginGraceTime closes
	// one not signed in within it (OpenSSH's MaxStartups,
	// PerSourceMaxStartups, LoginGraceTime).
	MaxStartups          int           `yaml:"max-startups"`
	PerSourceMaxStartups int           `yaml:"per-source-max-startups"`
	LoginGraceTime       time.Duration `yaml:"login-grace-time"`
	RecordSessions       string        `yaml:"record-sessions"`
	RecordMaxSize        string        `yaml:"record-max-size"`
	RecordMaxAge         string        `yaml:"record-max-age"`

	// The recording's limits, read from the flags or the file.
	recordMaxSize capValue
	recordMaxAge  ageValue
	recordErr     error
}

// serveFlags are zklocks serve's own flags.
type serveFlags struct {
	serveConfig
	longHeld time.Duration
	check    bool
	// listRecordings lists the session recordings and exits.
	listRecordings bool
	hist           historyFlags
}

func (f *serveFlags) register(fs *pflag.FlagSet) {
	hostKey, _ := xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "ssh_host_ed25519_key")
	fs.StringVar(&f.Listen, "listen", defaultServeListen, "address to serve SSH on, host:port")
	fs.StringVar(&f.AuthorizedKeys, "authorized-keys", "", "the keys and certificate authorities admitted, in OpenSSH's authorized_keys format;\na key is view unless its line starts with zklocks-role=\"operate\"; a cert-authority\nline with principals=\"…\" admits the user certificates it signed (read again when\nit changes, or on SIGHUP)")
	fs.StringVar(&f.RevokedKeys, "revoked-keys", "", "keys refused whatever --authorized-keys says, and the certificates whose key or\nauthority they list: OpenSSH's plain list, one public key a line (read again when it changes)")
	fs.StringVar(&f.HostKey, "host-key", hostKey, "the server's private key; made (ed25519, 0600) at the first start, then kept")
	fs.StringSliceVar(&f.Contexts, "contexts", nil, "the config file's contexts offered, comma-separated (default all of them);\na session starts on --context, or the current-context, and :ctx switches")
	fs.IntVar(&f.MaxSessions, "max-sessions", defaultServeMaxSessions, "most sessions open at once; more are refused")
	fs.DurationVar(&f.IdleTimeout, "idle-timeout", defaultServeIdle, "end a session after this long without a key press (0: never)")
	fs.DurationVar(&f.ApproveWithin, "approve-within", defaultApproveWithin, "on a context with approve: 2, how long an operator's request waits for another's approval")
	fs.IntVar(&f.MaxStartups, "max-startups", serve.DefaultMaxStartups, "most connections not signed in yet, in all; more are closed as they are accepted")
	fs.IntVar(&f.PerSourceMaxStartups, "per-source-max-startups", serve.DefaultPerSourceMaxStartups, "most connections not signed in yet from one address")
	fs.DurationVar(&f.LoginGraceTime, "login-grace-time", serve.DefaultLoginGraceTime, "close a connection not signed in (with its session open) within this")
	fs.StringVar(&f.RecordSessions, "record-sessions", "", "record every session's screen in this directory, an asciicast v2 file each\n(asciinema play plays it; 0600, named by time, user and key id); a session that\ncannot be recorded is refused")
	f.recordMaxSize = defaultRecordMaxSize
	fs.Var(&f.recordMaxSize, "record-max-size", "stop a session's recording at this size (e.g. 64MB, or off)")
	f.recordMaxAge = defaultRecordMaxAge
	fs.Var(&f.recordMaxAge, "record-max-age", "delete session recordings older than this (e.g. 90d, or off)")
	fs.BoolVar(&f.listRecordings, "list-recordings", false, "list the session recordings in --record-sessions and exit")
	fs.DurationVar(&f.Linger, "linger", defaultServeLinger, "how long a cluster's watcher runs on after its last session left")
	fs.DurationVar(&f.longHeld, "long-held", 5*time.Minute, "report holders older than this as long-held (0 turns it off)")
	fs.BoolVar(&f.check, "check", false, "check the configuration (keys file, host key, contexts) and exit, without serving")
	f.hist.register(fs, "history/serve/CONTEXT")
}

// merge takes each value from its flag when given, else from the config
// file's serve section, else the default; relative file names in the
// file are relative to it.
func (f *serveFlags) merge(fs *pflag.FlagSet, cf *configFile) serveConfig {
	c := f.serveConfig
	file := cf.Serve
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(filepath.Dir(cf.path), p)
	}
	take := func(flag string, set bool) bool { return !fs.Changed(flag) && set }
	fromFile(fs, "listen", &c.Listen, file.Listen)
	fromFile(fs, "authorized-keys", &c.AuthorizedKeys, rel(file.AuthorizedKeys))
	fromFile(fs, "revoked-keys", &c.RevokedKeys, rel(file.RevokedKeys))
	fromFile(fs, "host-key", &c.HostKey, rel(file.HostKey))
	if take("contexts", len(file.Contexts) > 0) {
		c.Contexts = file.Contexts
	}
	fromFile(fs, "max-sessions", &c.MaxSessions, file.MaxSessions)
	fromFile(fs, "idle-timeout", &c.IdleTimeout, file.IdleTimeout)
	fromFile(fs, "linger", &c.Linger, file.Linger)
	fromFile(fs, "approve-within", &c.ApproveWithin, file.ApproveWithin)
	fromFile(fs, "max-startups", &c.MaxStartups, file.MaxStartups)
	fromFile(fs, "per-source-max-startups", &c.PerSourceMaxStartups, file.PerSourceMaxStartups)
	fromFile(fs, "login-grace-time", &c.LoginGraceTime, file.LoginGraceTime)
	fromFile(fs, "record-sessions", &c.RecordSessions, rel(file.RecordSessions))
	if take("record-max-size", file.RecordMaxSize != "") {
		if err := c.recordMaxSize.Set(file.RecordMaxSize); err != nil {
			c.recordErr = fmt.Errorf("record-max-size: %w", err)
		}
	}
	if take("record-max-age", file.RecordMaxAge != "") {
		if err := c.recordMaxAge.Set(file.RecordMaxAge); err != nil {
			c.recordErr = fmt.Errorf("record-max-age: %w", err)
		}
	}
	return c
}

// fromFile sets *dst to the config file's value v, unless flag was given
// or v is not set (zero).
func fromFile[T comparable](fs *pflag.FlagSet, flag string, dst *T, v T) {
	var unset T
	if !fs.Changed(flag) && v != unset {
		*dst = v
	}
}

// check validates what needs no connection: the address, the host key
// (readable, or its directory there to make it in), the numbers and the
// contexts offered. The keys file is read by the caller.
func (c serveConfig) check(cf *configFile) error {
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("listen %q: %w", c.Listen, err)
	}
	if c.AuthorizedKeys == "" {
		return errors.New("no authorized keys: give --authorized-keys FILE, or authorized-keys in the config file's serve section")
	}
	if err := checkHostKey(c.HostKey); err != nil {
		return err
	}
	if c.MaxSessions <= 0 {
		return fmt.Errorf("max-sessions must be positive, got %d", c.MaxSessions)
	}
	if c.IdleTimeout < 0 || c.Linger < 0 {
		return errors.New("idle-timeout and linger cannot be negative")
	}
	if c.recordErr != nil {
		return c.recordErr
	}
	if c.MaxStartups <= 0 || c.PerSourceMaxStartups <= 0 || c.LoginGraceTime <= 0 {
		return errors.New("max-startups, per-source-max-startups and login-grace-time must be positive")
	}
	if c.ApproveWithin <= 0 {
		return fmt.Errorf("approve-within must be positive, got %s", c.ApproveWithin)
	}
	for _, name := range c.Contexts {
		if !slices.Contains(cf.names(), name) {
			return fmt.Errorf("context %q is offered, but %s does not define it (there are: %v)", name, cf.path, cf.names())
		}
	}
	return nil
}

// checkHostKey accepts a private key file that parses and that only its
// owner can read, or no file where one can be made.
func checkHostKey(path string) error {
	if path == "" {
		return errors.New("no host key file: give --host-key FILE")
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		// It is made at the first start, with the directories it needs,
		// under the nearest one that exists.
		dir := filepath.Dir(path)
		for {
			fi, err := os.Stat(dir)
			switch {
			case err == nil && fi.IsDir():
				return nil
			case err == nil:
				return fmt.Errorf("host key %s cannot be made: %s is not a directory", path, dir)
			case !errors.Is(err, os.ErrNotExist) || filepath.Dir(dir) == dir:
				return fmt.Errorf("host key %s cannot be made: %w", path, err)
			}
			dir = filepath.Dir(dir)
		}
	}
	if err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("host key %s is readable by others (mode %v): chmod 600 it", path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	if _, err := ssh.ParsePrivateKey(b); err != nil {
		return fmt.Errorf("host key %s: %w", path, err)
	}
	return nil
}
