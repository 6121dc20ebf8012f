package cli

import (
	"path/filepath"
	"testing"
)

// relativeFilesConfig names every file a context can hold, each relative.
const relativeFilesConfig = `
current-context: files
contexts:
  files:
    server: zk:2181
    auth:
      - {scheme: kerberos, user: ops@EXAMPLE.COM, keytab: keys/ops.keytab}
      - {scheme: sasl, user: app, password-file: secrets/app.pw}
    tls: {ca: tls/ca.pem, cert: tls/client.pem, key: tls/client-key.pem}
    admin: {scheme: https, ca: tls/admin-ca.pem}
`

// TestContextFilesAreTheConfigFiles: a relative file name in a context
// (keytab, password file, TLS and AdminServer files) is the config file
// directory's, whatever the working directory: the password file there is
// the one read. The same names on the command line are the working
// directory's.
func TestContextFilesAreTheConfigFiles(t *testing.T) {
	t.Chdir(t.TempDir()) // no file of the config's directory is here
	s, err := loadSettings(t, relativeFilesConfig, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(s.file.path)
	in := func(name string) string { return filepath.Join(dir, name) }
	if len(s.auth) != 2 || s.auth[0].kerberos == nil {
		t.Fatalf("the context's credentials: %+v", s.auth)
	}
	for _, f := range []struct{ what, got, want string }{
		{"keytab", s.auth[0].kerberos.Keytab, in("keys/ops.keytab")},
		{"password file", s.auth[1].file, in("secrets/app.pw")},
		{"tls ca", s.tls.CA, in("tls/ca.pem")},
		{"tls cert", s.tls.Cert, in("tls/client.pem")},
		{"tls key", s.tls.Key, in("tls/client-key.pem")},
		{"admin ca", s.admin.CA, in("tls/admin-ca.pem")},
	} {
		if f.got != f.want {
			t.Errorf("%s: %q, want %q (beside the config file)", f.what, f.got, f.want)
		}
	}
	writeFile(t, in("secrets/app.pw"), "from-the-config-dir\n")
	if _, err := s.auth[1].resolve(); err != nil {
		t.Fatalf("the context's password file, read from another working directory: %v", err)
	}

	s, err = loadSettings(t, relativeFilesConfig, nil, "--auth", "kerberos:ops@EXAMPLE.COM:@ops.keytab", "--auth", "sasl:app:@app.pw",
		"--tls-ca", "ca.pem", "--admin-ca", "admin-ca.pem")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ what, got, want string }{
		{"--auth kerberos keytab", s.auth[0].kerberos.Keytab, "ops.keytab"},
		{"--auth @FILE", s.auth[1].file, "app.pw"},
		{"--tls-ca", s.tls.CA, "ca.pem"},
		{"--admin-ca", s.admin.CA, "admin-ca.pem"},
	} {
		if f.got != f.want {
			t.Errorf("%s: %q, want %q (the working directory's)", f.what, f.got, f.want)
		}
	}
}
