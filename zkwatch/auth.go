package zkwatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch/sasl"
	"github.com/zklocks/zklocks/zkwatch/session"
)

// ErrAuthFailed: the server refused credentials given with [Options.Auth]
// (an unknown scheme, say, or SASL credentials: see [ErrSASLRejected]). A
// digest credential is never refused: a wrong password only shows later,
// as [ErrNoAuth] on the paths it does not open.
var ErrAuthFailed = zk.ErrAuthFailed

// Auth is a credential of the session: either one added as ZooKeeper's
// addauth does (Scheme "digest" with Secret "user:password", for
// instance), or, when Mechanism is set, a SASL identity that every
// connection of the session authenticates with before anything else
// (Scheme "sasl").
//
// Its String and GoString methods print the scheme only, so that
// formatting an Auth (or an Options holding one) never shows the secret.
type Auth struct {
	Scheme string
	// User is who the credential names: the digest or SASL user.
	User string
	// Secret is the addauth payload, or a SASL password; it is masked in
	// every log line.
	Secret []byte
	// Mechanism, for a SASL credential, makes the mechanism for one
	// connection to host (the member's host as dialled, which GSSAPI
	// needs for the service principal); Dial calls it once per connection.
	Mechanism func(host string) (sasl.Mechanism, error)
	// MechanismName names the SASL mechanism ("DIGEST-MD5") in messages.
	MechanismName string
}

// DigestAuth returns the credential of ZooKeeper's digest scheme for user.
func DigestAuth(user, password string) Auth {
	return Auth{Scheme: "digest", User: user, Secret: []byte(user + ":" + password)}
}

// SASLDigestAuth returns a SASL DIGEST-MD5 credential for user, whose
// identity in ACLs is sasl:user.
func SASLDigestAuth(user, password string) Auth {
	return Auth{Scheme: "sasl", User: user, Secret: []byte(password), MechanismName: "DIGEST-MD5",
		Mechanism: func(string) (sasl.Mechanism, error) { return sasl.NewDigestMD5(user, password), nil }}
}

// KerberosAuth returns the SASL GSSAPI credential of login's principal:
// every connection authenticates with a service ticket for the member it
// dials (zookeeper/HOST@REALM by ZooKeeper's Java client's rules), from
// login, which renews its tickets and re-reads its keytab. The session's
// identity in ACLs is sasl:PRINCIPAL (name@REALM, unless the server is set
// to strip the host or realm).
func KerberosAuth(login *sasl.Kerberos) Auth {
	return Auth{Scheme: "sasl", User: login.Principal(), MechanismName: "GSSAPI", Mechanism: login.Mechanism}
}

// IsSASL reports whether the credential authenticates connections by SASL
// rather than being added with addauth.
func (a Auth) IsSASL() bool { return a.Mechanism != nil }

// String returns the scheme with the secret masked.
func (a Auth) String() string { return a.Scheme + ":****" }

// GoString is String, so that %#v does not print the secret either.
func (a Auth) GoString() string { return "zkwatch.Auth{" + a.String() + "}" }

// AuthScheme is one scheme of credentials a user can give as
// SCHEME:USER:SECRET: New makes the credential from the user and the
// secret (a password, read from where the user said).
type AuthScheme struct {
	Name string
	// Doc says in a few words what the scheme is, for help texts.
	Doc string
	New func(user string, secret []byte) Auth
}

// authSchemes is the registry of schemes, by name: each is one entry here,
// and nothing else reads a scheme's name.
var authSchemes = map[string]AuthScheme{
	"digest": {Name: "digest", Doc: "ZooKeeper's digest scheme, added with addauth",
		New: func(user string, secret []byte) Auth { return DigestAuth(user, string(secret)) }},
	"sasl": {Name: "sasl", Doc: "SASL DIGEST-MD5, on every connection before any request",
		New: func(user string, secret []byte) Auth { return SASLDigestAuth(user, string(secret)) }},
}

// LookupAuthScheme returns the scheme of that name.
func LookupAuthScheme(name string) (AuthScheme, bool) {
	s, ok := authSchemes[name]
	return s, ok
}

// AuthSchemes returns the names of the schemes, sorted.
func AuthSchemes() []string { return slices.Sorted(maps.Keys(authSchemes)) }

// saslAuth returns the one SASL credential among auth, or an error when
// there are more; ok is false when there is none.
func saslAuth(auth []Auth) (a Auth, ok bool, err error) {
	for _, x := range auth {
		if !x.IsSASL() {
			continue
		}
		if ok {
			return Auth{}, false, errors.New("more than one sasl credential: a connection authenticates as one identity")
		}
		a, ok = x, true
	}
	return a, ok, nil
}

// addAuth adds every credential to the session, in order, giving up when
// ctx ends. go-zookeeper remembers each credential it added and re-sends it
// itself whenever it re-establishes the session on a new connection, before
// any queued request.
func addAuth(ctx context.Context, c *zk.Conn, auth []Auth) error {
	for _, a := range auth {
		if a.IsSASL() {
			continue
		}
		_, err := call(ctx, func() (struct{}, error) {
			return struct{}{}, c.AddAuth(a.Scheme, a.Secret)
		})
		if err != nil {
			return fmt.Errorf("add %s credentials: %w", a.Scheme, err)
		}
	}
	return nil
}

// redactLogger masks secrets in every line before passing it on. go-zookeeper
// does not log credentials today; this keeps it so if that ever changes.
type redactLogger struct {
	zk.Logger
	secrets [][]byte
}

// newRedactLogger masks each credential's whole secret and, for user:password
// secrets, the password alone. It returns next itself when there is nothing
// to mask.
func newRedactLogger(next zk.Logger, auth []Auth) zk.Logger {
	var secrets [][]byte
	for _, a := range auth {
		if len(a.Secret) == 0 {
			continue
		}
		secrets = append(secrets, a.Secret)
		if _, pw, ok := bytes.Cut(a.Secret, []byte(":")); ok && len(pw) > 0 {
			secrets = append(secrets, pw)
		}
	}
	if len(secrets) == 0 {
		return next
	}
	return &redactLogger{Logger: next, secrets: secrets}
}

// Printf implements zk.Logger.
func (l *redactLogger) Printf(format string, args ...interface{}) {
	l.Logger.Printf("%s", Redact(fmt.Sprintf(format, args...), l.secrets...))
}

// Redact returns s with every occurrence of each non-empty secret replaced
// by "****", longest secrets first so that a secret containing another is
// masked whole.
func Redact(s string, secrets ...[]byte) string {
	sorted := slices.Clone(secrets)
	slices.SortStableFunc(sorted, func(a, b []byte) int { return len(b) - len(a) })
	b := []byte(s)
	for _, sec := range sorted {
		if len(sec) > 0 {
			b = bytes.ReplaceAll(b, sec, []byte("****"))
		}
	}
	return string(b)
}

// credentials are the credentials of auth that are added to a session
// once it is established: all but SASL, which a dialer's connection runs
// before.
func credentials(auth []Auth) []session.Credential {
	var out []session.Credential
	for _, a := range auth {
		if !a.IsSASL() {
			out = append(out, session.Credential{Scheme: a.Scheme, Secret: a.Secret})
		}
	}
	return out
}
