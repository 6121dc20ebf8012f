package cli

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// kerberosScheme is the auth scheme of a Kerberos login: --auth
// kerberos:PRINCIPAL[:@KEYTAB], or a context's entry of scheme kerberos.
// The session authenticates by SASL GSSAPI; its identity is sasl:PRINCIPAL.
const kerberosScheme = "kerberos"

// kerberosLogins keeps one login per configuration for the process: every
// connection of every session (a watcher's, an operation's, a serve
// hub's) shares its tickets and its background renewal.
var kerberosLogins = struct {
	sync.Mutex
	m map[sasl.KerberosConfig]*sasl.Kerberos
}{m: map[sasl.KerberosConfig]*sasl.Kerberos{}}

// kerberosLogin returns the process's login for cfg, logging in the first
// time: by keytab, a ticket-granting ticket from the KDC; otherwise the
// credential cache. A failed login is not kept: the next session tries
// again.
func kerberosLogin(cfg sasl.KerberosConfig) (*sasl.Kerberos, error) {
	kerberosLogins.Lock()
	defer kerberosLogins.Unlock()
	if k, ok := kerberosLogins.m[cfg]; ok {
		return k, nil
	}
	k, err := sasl.NewKerberos(cfg)
	if err != nil {
		return nil, err
	}
	kerberosLogins.m[cfg] = k
	return k, nil
}

// parseKerberosFlag reads the rest of an --auth kerberos: value:
// PRINCIPAL (a credential cache holds its tickets) or PRINCIPAL:@KEYTAB.
func parseKerberosFlag(rest string) (credential, error) {
	cfg, err := sasl.ParseKerberos(rest)
	if err != nil {
		return credential{}, err
	}
	return credential{scheme: kerberosScheme, user: cfg.Principal, kerberos: &cfg, origin: "--auth"}, nil
}

// resolveKerberos logs in (once per process) and returns the session's
// credential. A login that fails for what the flags or the context name
// (krb5.conf, the keytab's file or principal) is a usage error; one the
// KDC refuses, or that finds no KDC, fails the command (exit 1).
func (c credential) resolveKerberos() (zkwatch.Auth, error) {
	login, err := kerberosLogin(*c.kerberos)
	if err != nil {
		err = fmt.Errorf("%s: %w", c.origin, err)
		if errors.Is(err, sasl.ErrKerberosConfig) || errors.Is(err, sasl.ErrKeytab) {
			return zkwatch.Auth{}, err
		}
		return zkwatch.Auth{}, &exitError{code: exitFailed, err: err}
	}
	return zkwatch.KerberosAuth(login), nil
}

// validateKerberos checks a context's kerberos entry: a principal with a
// keytab, or a credential cache (with or without the principal it must
// hold); never a password.
func (a authConfig) validateKerberos() error {
	if a.Password != "" || a.PasswordEnv != "" || a.PasswordFile != "" {
		return errors.New("a kerberos entry takes a keytab, or the credential cache, not a password")
	}
	if a.Keytab != "" && a.User == "" {
		return errors.New("a keytab needs the principal (user) whose key it holds")
	}
	if strings.Count(a.User, "@") > 1 {
		return fmt.Errorf("%q is not a principal (name[/instance][@REALM])", a.User)
	}
	return nil
}

// kerberosView describes a kerberos credential: its principal and where
// its key or tickets are.
func (c credential) kerberosView(m *yaml.Node) {
	principal := c.kerberos.Principal
	if principal == "" {
		principal = "(the credential cache's)"
	}
	put(m, "user", str(principal), "")
	if c.kerberos.Keytab != "" {
		put(m, "keytab", str(c.kerberos.Keytab), "")
		return
	}
	put(m, "keytab", str(""), "none: the credential cache (KRB5CCNAME, or /tmp/krb5cc_UID)")
}
