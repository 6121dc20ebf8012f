package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/sasl"
)

func TestParseKerberosAuthFlag(t *testing.T) {
	for _, tc := range []struct {
		value     string
		principal string
		keytab    string
		wantErr   string
	}{
		{value: "kerberos:ops@EXAMPLE.COM:@/etc/zklocks/ops.keytab", principal: "ops@EXAMPLE.COM", keytab: "/etc/zklocks/ops.keytab"},
		{value: "kerberos:svc/host.example.com:@k.keytab", principal: "svc/host.example.com", keytab: "k.keytab"},
		{value: "kerberos:ops", principal: "ops"},
		{value: "kerberos:", principal: ""},
		{value: "kerberos:ops:/etc/k.keytab", wantErr: ":@KEYTAB"},
		{value: "kerberos::@k.keytab", wantErr: "needs the principal"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			c, err := parseAuthFlag(tc.value)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.scheme != kerberosScheme || c.kerberos == nil || c.kerberos.Principal != tc.principal || c.kerberos.Keytab != tc.keytab {
				t.Fatalf("got %+v (kerberos %+v), want principal %q keytab %q", c, c.kerberos, tc.principal, tc.keytab)
			}
			if c.password != "" || c.file != "" || c.env != "" {
				t.Fatalf("a kerberos credential with a password source: %+v", c)
			}
		})
	}
}

func TestKerberosContextEntry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a       authConfig
		wantErr string
	}{
		{"keytab", authConfig{Scheme: "kerberos", User: "ops@EXAMPLE.COM", Keytab: "/etc/ops.keytab"}, ""},
		{"credential cache", authConfig{Scheme: "kerberos"}, ""},
		{"credential cache of a principal", authConfig{Scheme: "kerberos", User: "ops"}, ""},
		{"password", authConfig{Scheme: "kerberos", User: "ops", PasswordEnv: "PW"}, "not a password"},
		{"keytab without principal", authConfig{Scheme: "kerberos", Keytab: "/etc/ops.keytab"}, "needs the principal"},
		{"keytab of another scheme", authConfig{Scheme: "digest", User: "ops", Password: "x", Keytab: "/etc/ops.keytab"}, "keytab is for scheme kerberos"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.a.validate()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c := tc.a.credential("context prod")
			want := sasl.KerberosConfig{Principal: tc.a.User, Keytab: tc.a.Keytab}
			if c.kerberos == nil || *c.kerberos != want {
				t.Fatalf("credential %+v, want kerberos %+v", c, want)
			}
		})
	}
}

// TestKerberosResolveSaysWhy: a login that fails (here krb5.conf is
// missing) names where the credential came from and wraps the reason.
func TestKerberosResolveSaysWhy(t *testing.T) {
	c := credential{scheme: kerberosScheme, origin: "context prod",
		kerberos: &sasl.KerberosConfig{Principal: "ops", Keytab: "/nonexistent/ops.keytab", Krb5Conf: "/nonexistent/krb5.conf"}}
	_, err := c.resolve()
	if !errors.Is(err, sasl.ErrKerberosConfig) || !strings.HasPrefix(err.Error(), "context prod: ") {
		t.Fatalf("resolve: %v, want a context prod: error wrapping sasl.ErrKerberosConfig", err)
	}
}
