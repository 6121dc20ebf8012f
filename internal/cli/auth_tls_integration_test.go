package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// testPassword is distinctive enough that finding it anywhere is a leak.
const testPassword = "Pa55-w0rd-7c1e9f"

// TestIntegrationDigestAuth reads a lock whose nodes only user ops may read:
// without credentials show names the denied path, with them (from the flag,
// a file, a variable or a context) it reads the lock, and the password shows
// up in no output and no log.
func TestIntegrationDigestAuth(t *testing.T) {
	srv, root := shared.Start(t), shared.Root(t)
	admin := srv.Connect(t)
	if err := admin.AddAuth("digest", []byte("ops:"+testPassword)); err != nil {
		t.Fatal(err)
	}
	acl := zk.DigestACL(zk.PermAll, "ops", testPassword)
	mustCreate(t, admin, root+"/locks", zk.WorldACL(zk.PermAll), 0)
	mustCreate(t, admin, root+"/locks/secret", acl, 0)
	mustCreate(t, admin, root+"/locks/secret/lock-", acl, zk.FlagEphemeral|zk.FlagSequence)

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("ZKLOCKS_TEST_PASSWORD", testPassword)
	pwFile := filepath.Join(dir, "password")
	writeFile(t, pwFile, testPassword+"\n")
	writeFile(t, filepath.Join(dir, "config", "zklocks", "config.yaml"), fmt.Sprintf(`
contexts:
  ops:
    server: %s
    auth: [{scheme: digest, user: ops, password-file: %s}]
  plain:
    server: %s
    auth: [{scheme: digest, user: ops, password: %s}]
`, srv.Addr(), pwFile, srv.Addr(), testPassword))
	logFile := filepath.Join(dir, "zklocks.log")

	// Paths in the config above are where the password could leak from.
	var outputs []string
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"no credentials", []string{"--server", srv.Addr()}, exitFailed},
		{"wrong password", []string{"--server", srv.Addr(), "--auth", "digest:ops:not-" + testPassword}, exitFailed},
		{"flag", []string{"--server", srv.Addr(), "--auth", "digest:ops:" + testPassword}, exitOK},
		{"flag file", []string{"--server", srv.Addr(), "--auth", "digest:ops:@" + pwFile}, exitOK},
		{"flag variable", []string{"--server", srv.Addr(), "--auth", "digest:ops:env:ZKLOCKS_TEST_PASSWORD"}, exitOK},
		{"context", []string{"--context", "ops"}, exitOK},
		{"plain-text context", []string{"--context", "plain"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"show", "--json", "--timeout", "15s", "--log-file", logFile}, tc.args...)
			out, errOut, code := run(t, append(args, root+"/locks/secret")...)
			outputs = append(outputs, out, errOut)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			var s showJSON
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, out)
			}
			if tc.code != exitOK {
				if !strings.Contains(errOut, root+"/locks/secret: zk: not authenticated") {
					t.Errorf("stderr does not name the denied path: %s", errOut)
				}
				if len(s.Errors) != 1 || s.Errors[0].Path != root+"/locks/secret" {
					t.Errorf("errors = %+v, want /locks/secret", s.Errors)
				}
				return
			}
			if len(s.Locks) != 1 || s.Locks[0].Holders != 1 {
				t.Fatalf("locks = %+v, want /locks/secret with one holder", s.Locks)
			}
		})
	}
	// config view describes the credentials without reading them out.
	for _, ctx := range []string{"ops", "plain"} {
		out, errOut, code := run(t, "--context", ctx, "--auth", "digest:ops:"+testPassword, "config", "view")
		outputs = append(outputs, out, errOut)
		if code != exitOK || !strings.Contains(out, "password: '****'") {
			t.Errorf("config view with --auth: exit %d, stdout:\n%s", code, out)
		}
		out, errOut, code = run(t, "--context", ctx, "config", "view")
		outputs = append(outputs, out, errOut)
		if code != exitOK {
			t.Errorf("config view --context %s: exit %d: %s", ctx, code, errOut)
		}
	}
	if log, err := os.ReadFile(logFile); err == nil {
		outputs = append(outputs, string(log))
	}
	for _, o := range outputs {
		if strings.Contains(o, testPassword) {
			t.Errorf("the password leaked into output or log:\n%s", o)
		}
	}
}

func mustCreate(t *testing.T, c *zk.Conn, path string, acl []zk.ACL, flags int32) {
	t.Helper()
	if _, err := c.Create(path, []byte("zklocks-test"), flags, acl); err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestIntegrationTLS reads a lock through a server's secure client port,
// which requires a client certificate, and finds out what the four-letter
// words do there.
func TestIntegrationTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pki := newTestPKI(t, dir)
	securePort := zktest.FreePort(t)
	srv := zktest.Start(t,
		zktest.WithConfig(fmt.Sprintf("secureClientPort=%d", securePort)),
		zktest.WithJVMFlags(
			// Debian's zookeeper.jar leaves netty-codec, which Netty's handlers need, off its
			// class path; an automatic module is seen from the class path.
			"--module-path=/usr/share/java/netty-codec.jar", "--add-modules=io.netty.codec",
			"-Dzookeeper.serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
			"-Dzookeeper.ssl.keyStore.location="+pki.serverBundle,
			"-Dzookeeper.ssl.keyStore.type=PEM",
			"-Dzookeeper.ssl.trustStore.location="+pki.ca,
			"-Dzookeeper.ssl.trustStore.type=PEM",
			"-Dzookeeper.ssl.clientAuth=need",
		))
	plain := srv.Connect(t)
	mustCreate(t, plain, "/locks", zk.WorldACL(zk.PermAll), 0)
	mustCreate(t, plain, "/locks/tls", zk.WorldACL(zk.PermAll), 0)
	mustCreate(t, plain, "/locks/tls/lock-", zk.WorldACL(zk.PermAll), zk.FlagEphemeral|zk.FlagSequence)
	secure := net.JoinHostPort("127.0.0.1", strconv.Itoa(securePort))

	cfg, err := zkwatch.TLSFiles{CA: pki.ca, Cert: pki.clientCert, Key: pki.clientKey}.Config()
	if err != nil {
		t.Fatal(err)
	}
	// The secure port opens after the plain one serves, and the server's
	// first TLS handshake (its TLS classes loaded, its key read) takes a
	// loaded machine tens of seconds: the commands below are run once the
	// port answers, rather than timed against the server's warm-up.
	zktest.WaitUntil(t, time.Minute, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		reply, err := words.FourLetterTLS(ctx, secure, "srvr", cfg)
		if err != nil || !strings.Contains(reply, "Mode:") {
			return fmt.Sprintf("the secure port does not answer srvr over TLS: %q, %v", reply, err)
		}
		return ""
	})

	tlsFlags := []string{"--tls-ca", pki.ca, "--tls-cert", pki.clientCert, "--tls-key", pki.clientKey}
	start := time.Now()
	// show also asks the server for its watch table, over TLS too.
	out, errOut, code := run(t, append([]string{"show", "--json", "--server", secure}, append(tlsFlags, "/locks/tls")...)...)
	t.Logf("show over TLS took %s", time.Since(start))
	if code != exitOK {
		t.Fatalf("show over TLS: exit %d: %s", code, errOut)
	}
	var s showJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if len(s.Locks) != 1 || s.Locks[0].Holders != 1 {
		t.Fatalf("locks = %+v, want /locks/tls with one holder", s.Locks)
	}
	if s.WatchesSource != "server" {
		t.Fatalf("the watch table over TLS: %s (%s)", s.WatchesSource, s.WatchesNote)
	}

	for _, tc := range []struct {
		name  string
		flags []string
	}{
		{"no TLS", nil},
		{"no client certificate", []string{"--tls-ca", pki.ca}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const timeout = 2 * time.Second
			start := time.Now()
			args := append([]string{"show", "--server", secure, "--timeout", timeout.String()}, tc.flags...)
			_, errOut, code := run(t, append(args, "/locks/tls")...)
			took := time.Since(start)
			if code != exitUnreachable {
				t.Fatalf("exit %d, want %d: %s", code, exitUnreachable, errOut)
			}
			if took > timeout+2*time.Second {
				t.Errorf("took %s, --timeout is %s", took, timeout)
			}
			if tc.flags == nil && (strings.Contains(errOut, "authentication") || !strings.Contains(errOut, "closed the connection") ||
				!strings.Contains(errOut, "TLS-only port spoken to in plain text")) {
				t.Errorf("plain text to a TLS port must say the server hung up, not send people after credentials: %s", errOut)
			}
			t.Logf("%s: %s", tc.name, errOut)
		})
	}

	t.Run("four-letter words", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, plainErr := words.FourLetter(ctx, secure, "srvr")
		t.Logf("plain srvr to the secure port: %v", plainErr)
		if plainErr == nil {
			t.Errorf("plain srvr to the secure port answered")
		}
		tlsCtx, cancelTLS := context.WithTimeout(context.Background(), time.Minute)
		defer cancelTLS()
		reply, err := words.FourLetterTLS(tlsCtx, secure, "srvr", cfg)
		t.Logf("srvr over TLS: %q, %v", reply, err)
		if err != nil || !strings.Contains(reply, "Mode:") {
			t.Errorf("srvr over TLS: %q, %v", reply, err)
		}
	})
}

// testPKI is a CA and the certificates it signs, as PEM files.
type testPKI struct {
	ca                    string // the CA certificate
	serverBundle          string // the server's key and certificate, for ZooKeeper's PEM key store
	clientCert, clientKey string
}

// newTestPKI writes a fresh CA, a server certificate for 127.0.0.1 and
// localhost, and a client certificate into dir.
func newTestPKI(t *testing.T, dir string) testPKI {
	t.Helper()
	caKey, caDER := newCert(t, &x509.Certificate{
		Subject:               pkix.Name{CommonName: "zklocks test CA"},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}, nil, nil)
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leaf := func(cn string, usage x509.ExtKeyUsage) (keyPEM, certPEM []byte) {
		key, der := newCert(t, &x509.Certificate{
			Subject:     pkix.Name{CommonName: cn},
			DNSNames:    []string{"localhost"},
			IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
			KeyUsage:    x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}, caCert, caKey)
		return keyPEMOf(t, key), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	}
	serverKey, serverCert := leaf("zookeeper", x509.ExtKeyUsageServerAuth)
	clientKey, clientCert := leaf("zklocks", x509.ExtKeyUsageClientAuth)
	p := testPKI{
		ca:           filepath.Join(dir, "ca.pem"),
		serverBundle: filepath.Join(dir, "server.pem"),
		clientCert:   filepath.Join(dir, "client.pem"),
		clientKey:    filepath.Join(dir, "client-key.pem"),
	}
	writeFile(t, p.ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})))
	writeFile(t, p.serverBundle, string(serverKey)+string(serverCert))
	writeFile(t, p.clientCert, string(clientCert))
	writeFile(t, p.clientKey, string(clientKey))
	return p
}

// newCert creates a key and a certificate from tmpl, signed by parent's key
// or self-signed when parent is nil.
func newCert(t *testing.T, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(24 * time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	return key, der
}

func keyPEMOf(t *testing.T, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}
