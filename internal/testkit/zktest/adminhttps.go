package zktest

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// AdminHTTPS makes a self-signed keystore for 127.0.0.1 with keytool and
// returns the option that serves the AdminServer over HTTPS only with it
// (admin.forceHttps), and the PEM file of its certificate for the client
// to trust. ZooKeeper takes the AdminServer's key and trust stores from the
// quorum TLS properties (ssl.quorum.keyStore.*, ssl.quorum.trustStore.*);
// without a trust store it logs an error and runs no AdminServer at all.
// Use it with WithAdminServer.
func AdminHTTPS(t testing.TB) (opt Option, caPEM string) {
	t.Helper()
	keytool, err := zkserver.JDKTool("keytool")
	if err != nil {
		t.Skipf("zktest: keytool not found: %v", err)
	}
	dir := t.TempDir()
	store, pem, pass := filepath.Join(dir, "admin.p12"), filepath.Join(dir, "admin-ca.pem"), "zklocks-test"
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(keytool, args...).CombinedOutput(); err != nil {
			t.Fatalf("zktest: keytool %v: %v\n%s", args[0], err, out)
		}
	}
	run("-genkeypair", "-alias", "zk", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
		"-keystore", store, "-storetype", "PKCS12", "-storepass", pass, "-keypass", pass,
		"-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1")
	run("-exportcert", "-rfc", "-alias", "zk", "-keystore", store, "-storepass", pass, "-file", pem)
	return WithConfig(
		"admin.forceHttps=true",
		"ssl.quorum.keyStore.location="+store, "ssl.quorum.keyStore.password="+pass, "ssl.quorum.keyStore.type=PKCS12",
		"ssl.quorum.trustStore.location="+store, "ssl.quorum.trustStore.password="+pass, "ssl.quorum.trustStore.type=PKCS12",
	), pem
}
