package cli

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/sasl"
)

const saslConfigFile = `
current-context: prod
contexts:
  prod:
    server: zk1:2181
    auth: [{scheme: kerberos, user: ops@EXAMPLE.COM, keytab: /etc/ops.keytab}]
    sasl: {service: zk, canonicalize-host: false, server-realm: ZK.EXAMPLE.COM}
  plain:
    server: zk2:2181
    auth: [{scheme: kerberos, user: ops}]
`

// TestSASLServicePrincipalSettings: the --sasl-* flags and a context's
// sasl block reach every kerberos credential's configuration, each flag
// over the context's value, the Java client's defaults otherwise.
func TestSASLServicePrincipalSettings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
		args   []string
		want   sasl.KerberosConfig
		source string // sasl.service's
	}{
		{"defaults", saslConfigFile, []string{"--context", "plain"},
			sasl.KerberosConfig{Principal: "ops"}, "default"},
		{"context", saslConfigFile, nil,
			sasl.KerberosConfig{Principal: "ops@EXAMPLE.COM", Keytab: "/etc/ops.keytab", ServiceName: "zk", KeepHostName: true, ServerRealm: "ZK.EXAMPLE.COM"}, "context prod"},
		{"flags over the context", saslConfigFile, []string{"--sasl-service", "zookeeper2", "--sasl-canonicalize-host=true", "--sasl-server-realm", "OTHER.COM"},
			sasl.KerberosConfig{Principal: "ops@EXAMPLE.COM", Keytab: "/etc/ops.keytab", ServiceName: "zookeeper2", ServerRealm: "OTHER.COM"}, "--sasl-service"},
		{"flags with --auth", "", []string{"--auth", "kerberos:ops:@k.keytab", "--sasl-service", "zk", "--sasl-canonicalize-host=false"},
			sasl.KerberosConfig{Principal: "ops", Keytab: "k.keytab", ServiceName: "zk", KeepHostName: true}, "--sasl-service"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := loadSettings(t, tc.config, nil, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.auth) != 1 || s.auth[0].kerberos == nil || *s.auth[0].kerberos != tc.want {
				t.Fatalf("auth %+v, want one kerberos credential %+v", s.auth, tc.want)
			}
			if got := s.source["sasl.service"]; got != tc.source {
				t.Fatalf("sasl.service from %q, want %q", got, tc.source)
			}
		})
	}
}

// TestSASLSettingsRefused: a service or realm that cannot be a part of a
// principal, and a setting with no kerberos credential to apply to, are
// refused saying why.
func TestSASLSettingsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"service with a slash", "", []string{"--auth", "kerberos:ops", "--sasl-service", "zk/host"}, `sasl service "zk/host"`},
		{"realm with an at", "", []string{"--auth", "kerberos:ops", "--sasl-server-realm", "@EXAMPLE.COM"}, `sasl server-realm "@EXAMPLE.COM"`},
		{"flag without kerberos", "", []string{"--auth", "digest:ops:pw", "--sasl-service", "zk"}, "--sasl-service names the servers' Kerberos principal, and the session has no kerberos credential"},
		{"flag without any credential", "", []string{"--sasl-canonicalize-host=false"}, "--sasl-canonicalize-host names"},
		{"context without kerberos", "contexts: {a: {server: x, sasl: {service: zk}}}", nil, "sasl: sasl names the servers' Kerberos principal, and auth has no entry of scheme kerberos"},
		{"bad context service", "contexts: {a: {server: x, auth: [{scheme: kerberos}], sasl: {service: 'a b'}}}", nil, `sasl service "a b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadSettings(t, tc.config, nil, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestConfigViewShowsSASL: config view says which service principal a
// kerberos credential asks for, and where each part comes from.
func TestConfigViewShowsSASL(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(serverEnv, "")
	writeFile(t, dir+"/zklocks/config.yaml", saslConfigFile)
	out, errOut, code := run(t, "--sasl-server-realm", "FLAG.COM", "config", "view")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"service: zk # context prod", "canonicalize-host: false # context prod", "server-realm: FLAG.COM # --sasl-server-realm"} {
		if !strings.Contains(out, want) {
			t.Errorf("config view lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = run(t, "--context", "plain", "config", "view")
	if !strings.Contains(out, "service: zookeeper # default") || !strings.Contains(out, "canonicalize-host: true # default") {
		t.Errorf("config view of the defaults:\n%s", out)
	}
}
