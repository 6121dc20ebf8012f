package zktest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SASLDigest returns the option that makes a server accept SASL
// DIGEST-MD5 for users (name to password): a JAAS file whose Server
// section has ZooKeeper's DigestLoginModule with one user_NAME entry
// each, and the SASLAuthenticationProvider. With enforce, every session
// must authenticate by SASL (enforce.auth.enabled=true,
// enforce.auth.schemes=sasl, ZooKeeper 3.7+): a request of a session
// that has not gets error −124 and the server closes the session.
func SASLDigest(t testing.TB, users map[string]string, enforce bool) Option {
	t.Helper()
	return SASLDigestAt(t, filepath.Join(t.TempDir(), "jaas.conf"), users, enforce)
}

// SASLDigestAt is SASLDigest with the JAAS file at jaas, which the test
// may write again (WriteJAAS) while the server is stopped: a server that
// restarts knowing other users or passwords.
func SASLDigestAt(t testing.TB, jaas string, users map[string]string, enforce bool) Option {
	t.Helper()
	WriteJAAS(t, jaas, users)
	flags := []string{"-Djava.security.auth.login.config=" + jaas,
		"-Dzookeeper.authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider"}
	if enforce {
		flags = append(flags, "-Dzookeeper.enforce.auth.enabled=true", "-Dzookeeper.enforce.auth.schemes=sasl")
	}
	return WithJVMFlags(flags...)
}

// WriteJAAS writes a JAAS file whose Server section has ZooKeeper's
// DigestLoginModule with users (name to password), mode 0600.
func WriteJAAS(t testing.TB, path string, users map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required")
	names := make([]string, 0, len(users))
	for n := range users {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "\n  user_%s=%q", n, users[n])
	}
	b.WriteString(";\n};\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatalf("zktest: write jaas file: %v", err)
	}
}
