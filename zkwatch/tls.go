package zkwatch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/go-zookeeper/zk"
)

// minHandshakeTimeout bounds a TLS handshake from below. go-zookeeper gives
// its dialer one second, which a JVM doing its first handshakes on a busy
// machine can miss; a server that cannot speak TLS fails sooner anyway.
const minHandshakeTimeout = 5 * time.Second

// TLSFiles names the PEM files of a TLS connection to a secure client port
// (ZooKeeper's secureClientPort).
type TLSFiles struct {
	// CA holds the certificates that sign the servers' certificates; empty
	// means the system's roots.
	CA string
	// Cert and Key are the client's certificate chain and private key, for
	// servers that ask for one (ssl.clientAuth); both or neither.
	Cert, Key string
	// ServerName is what the servers' certificates must name; empty means
	// each server's host as written in the connect string, so that
	// 127.0.0.1:2281 must be an IP address in its certificate.
	ServerName string
}

// Enabled reports whether any field is set, that is, whether to use TLS.
func (f TLSFiles) Enabled() bool { return f != TLSFiles{} }

// Config reads the files and returns the TLS configuration to put in
// [Options.TLS]. Errors name the file, never its content.
func (f TLSFiles) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName}
	if f.CA != "" {
		pem, err := os.ReadFile(f.CA)
		if err != nil {
			return nil, fmt.Errorf("tls ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca %s: no PEM certificate found", f.CA)
		}
		cfg.RootCAs = pool
	}
	switch {
	case f.Cert != "" && f.Key != "":
		cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("tls client certificate %s with key %s: %w", f.Cert, f.Key, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case f.Cert != "":
		return nil, fmt.Errorf("tls client certificate %s needs its key", f.Cert)
	case f.Key != "":
		return nil, fmt.Errorf("tls client key %s needs its certificate", f.Key)
	}
	return cfg, nil
}

// tlsDialer returns a go-zookeeper dialer that opens TLS connections with
// cfg. Each connection verifies the server it dials: when cfg names no
// server, the host part of the address is the name to verify, which for an
// IP address means an IP SAN of the certificate (and no SNI is sent).
func tlsDialer(cfg *tls.Config) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c := cfg.Clone()
		if c.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			c.ServerName = host
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(timeout, minHandshakeTimeout))
		defer cancel()
		d := &tls.Dialer{NetDialer: &net.Dialer{Timeout: timeout}, Config: c}
		return d.DialContext(ctx, network, addr)
	}
}
