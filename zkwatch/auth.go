package zkwatch

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/go-zookeeper/zk"
)

// ErrAuthFailed: the server refused credentials given with [Options.Auth]
// (an unknown scheme, say). A digest credential is never refused: a wrong
// password only shows later, as [ErrNoAuth] on the paths it does not open.
var ErrAuthFailed = zk.ErrAuthFailed

// Auth is a credential to add to a session, as ZooKeeper's addauth does:
// Scheme "digest" with Secret "user:password", for instance.
//
// Its String and GoString methods print the scheme only, so that formatting
// an Auth (or an Options holding one) never shows the secret.
type Auth struct {
	Scheme string
	Secret []byte
}

// DigestAuth returns the credential of ZooKeeper's digest scheme for user.
func DigestAuth(user, password string) Auth {
	return Auth{Scheme: "digest", Secret: []byte(user + ":" + password)}
}

// String returns the scheme with the secret masked.
func (a Auth) String() string { return a.Scheme + ":****" }

// GoString is String, so that %#v does not print the secret either.
func (a Auth) GoString() string { return "zkwatch.Auth{" + a.String() + "}" }

// addAuth adds every credential to the session, in order, giving up when
// ctx ends. go-zookeeper remembers each credential it added and re-sends it
// itself whenever it re-establishes the session on a new connection, before
// any queued request.
func addAuth(ctx context.Context, c *zk.Conn, auth []Auth) error {
	for _, a := range auth {
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
