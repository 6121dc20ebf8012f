package zkwatch

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/loopback"
)

// pemFiles writes a CA and a server certificate it signs for dnsNames and
// ips into a temporary directory, and returns the CA file and the server's
// key pair.
func pemFiles(t *testing.T, dnsNames []string, ips []net.IP) (ca string, cert tls.Certificate) {
	t.Helper()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey, leafKey := newKey(), newKey()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "zookeeper"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: dnsNames, IPAddresses: ips, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, caTmpl, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return ca, tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}
}

// tlsServer accepts TLS connections with cert, answers "ok" and reports
// the SNI each client sent.
func tlsServer(t *testing.T, cert tls.Certificate) (addr string, sni <-chan string) {
	t.Helper()
	names := make(chan string, 10)
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert},
		GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			names <- h.ServerName
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	loopback.ServeOn(t, l, func(c net.Conn) {
		_ = c.(*tls.Conn).Handshake()
		_, _ = io.WriteString(c, "ok")
	})
	return l.Addr().String(), names
}

func TestTLSDialerServerName(t *testing.T) {
	for _, tc := range []struct {
		name       string
		dnsNames   []string
		ips        []net.IP
		serverName string
		wantSNI    string
		wantErr    string
	}{
		{"IP address in certificate", nil, []net.IP{net.IPv4(127, 0, 0, 1)}, "", "", ""},
		{"certificate names another host", []string{"zk.example"}, nil, "", "", "127.0.0.1"},
		{"server name given", []string{"zk.example"}, nil, "zk.example", "zk.example", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ca, cert := pemFiles(t, tc.dnsNames, tc.ips)
			addr, sni := tlsServer(t, cert)
			cfg, err := TLSFiles{CA: ca, ServerName: tc.serverName}.Config()
			if err != nil {
				t.Fatal(err)
			}
			conn, err := tlsDialer(cfg)("tcp", addr, time.Second)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("dial: %v, want an error about %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			defer conn.Close()
			if b, err := io.ReadAll(conn); err != nil || string(b) != "ok" {
				t.Errorf("read %q, %v", b, err)
			}
			if got := <-sni; got != tc.wantSNI {
				t.Errorf("SNI %q, want %q", got, tc.wantSNI)
			}
			if cfg.ServerName != tc.serverName {
				t.Errorf("the dialer changed the shared config's ServerName to %q", cfg.ServerName)
			}
		})
	}
}

func TestTLSFilesConfigErrors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	secretKey := filepath.Join(dir, "key.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secretKey, []byte("-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files TLSFiles
		want  string
	}{
		{"missing CA", TLSFiles{CA: filepath.Join(dir, "missing.pem")}, "missing.pem"},
		{"CA without certificates", TLSFiles{CA: notPEM}, "no PEM certificate"},
		{"certificate without key", TLSFiles{Cert: notPEM}, "needs its key"},
		{"key without certificate", TLSFiles{Key: secretKey}, "needs its certificate"},
		{"bad pair", TLSFiles{Cert: notPEM, Key: secretKey}, "key.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.files.Config()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "c2VjcmV0") {
				t.Errorf("the error quotes the key: %v", err)
			}
		})
	}
	if (TLSFiles{}).Enabled() || !(TLSFiles{ServerName: "zk"}).Enabled() {
		t.Error("Enabled: TLS is on exactly when a field is set")
	}
}
