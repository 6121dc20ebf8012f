package sasl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/krberror"
	"github.com/jcmturner/gokrb5/v8/messages"
)

// fakeHosts resolves from two tables, as /etc/hosts would.
type fakeHosts struct {
	forward map[string][]string // name → addresses
	reverse map[string][]string // address → names
}

func (f fakeHosts) LookupHost(_ context.Context, host string) ([]string, error) {
	if a, ok := f.forward[host]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

func (f fakeHosts) LookupAddr(_ context.Context, addr string) ([]string, error) {
	if n, ok := f.reverse[addr]; ok {
		return n, nil
	}
	return nil, fmt.Errorf("no name for %s", addr)
}

func TestServiceHost(t *testing.T) {
	hosts := fakeHosts{
		forward: map[string][]string{
			"zk1":                  {"10.0.0.1"},
			"zk1.example.com":      {"10.0.0.1"},
			"alias":                {"10.0.0.2"},
			"liar.example.com":     {"10.9.9.9"},
			"localhost":            {"127.0.0.1", "::1"},
			"noreverse.example.io": {"10.0.0.3"},
		},
		reverse: map[string][]string{
			"10.0.0.1":  {"zk1.example.com."},
			"10.0.0.2":  {"liar.example.com."}, // resolves forward elsewhere
			"127.0.0.1": {"localhost"},
		},
	}
	for _, tc := range []struct {
		host         string
		canonicalize bool
		want         string
	}{
		{"zk1", true, "zk1.example.com"},
		{"zk1", false, "zk1"},
		{"10.0.0.1", true, "zk1.example.com"},
		{"10.0.0.1", false, "zk1.example.com"}, // a literal's name is looked up either way
		{"127.0.0.1", true, "localhost"},
		{"alias", true, "alias"},                               // the reverse name does not resolve back
		{"noreverse.example.io", true, "noreverse.example.io"}, // no reverse name: the address is no better
		{"10.0.0.3", true, "10.0.0.3"},                         // nothing better than the literal
		{"unknown", true, "unknown"},
	} {
		t.Run(fmt.Sprintf("%s/%t", tc.host, tc.canonicalize), func(t *testing.T) {
			if got := serviceHost(context.Background(), hosts, tc.host, tc.canonicalize); got != tc.want {
				t.Fatalf("serviceHost(%q, %t) = %q, want %q", tc.host, tc.canonicalize, got, tc.want)
			}
		})
	}
}

func TestParseKerberos(t *testing.T) {
	for _, tc := range []struct {
		spec, principal, keytab string
		bad                     bool
	}{
		{spec: "ops", principal: "ops"},
		{spec: "ops@EXAMPLE.COM", principal: "ops@EXAMPLE.COM"},
		{spec: "svc/host.example.com@EXAMPLE.COM:@/etc/zklocks.keytab", principal: "svc/host.example.com@EXAMPLE.COM", keytab: "/etc/zklocks.keytab"},
		{spec: "", principal: ""}, // the credential cache's own principal
		{spec: "ops:/etc/k.keytab", bad: true},
		{spec: "ops:@", bad: true},
		{spec: ":@/etc/k.keytab", bad: true},
		{spec: "ops@", bad: true},
		{spec: "a@B@C", bad: true},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			c, err := ParseKerberos(tc.spec)
			if tc.bad {
				if !errors.Is(err, ErrKerberosConfig) {
					t.Fatalf("ParseKerberos(%q) = %+v, %v; want ErrKerberosConfig", tc.spec, c, err)
				}
				return
			}
			if err != nil || c.Principal != tc.principal || c.Keytab != tc.keytab {
				t.Fatalf("ParseKerberos(%q) = %+v, %v; want principal %q keytab %q", tc.spec, c, err, tc.principal, tc.keytab)
			}
		})
	}
}

func TestCCachePath(t *testing.T) {
	for _, tc := range []struct {
		env, want string
		bad       bool
	}{
		{env: "FILE:/tmp/cc", want: "/tmp/cc"},
		{env: "/tmp/cc2", want: "/tmp/cc2"},
		{env: "KEYRING:persistent:1000", bad: true},
	} {
		t.Setenv("KRB5CCNAME", tc.env)
		got, err := KerberosConfig{}.ccachePath()
		if tc.bad != (err != nil) || got != tc.want {
			t.Errorf("KRB5CCNAME=%s: %q, %v", tc.env, got, err)
		}
	}
	t.Setenv("KRB5CCNAME", "")
	if got, _ := (KerberosConfig{}).ccachePath(); !strings.HasPrefix(got, "/tmp/krb5cc_") {
		t.Errorf("default cache %q, want /tmp/krb5cc_UID", got)
	}
}

func TestClassifyKerberos(t *testing.T) {
	kdcErr := func(code int32) error {
		// As gokrb5's AS exchange reports the KDC's answer.
		return krberror.Errorf(messages.KRBError{ErrorCode: code}, krberror.KDCError, "AS Exchange Error: kerberos error response from KDC")
	}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"unknown client", kdcErr(6), ErrUnknownPrincipal},
		{"unknown service", kdcErr(7), ErrUnknownService},
		{"preauth failed", kdcErr(24), ErrWrongKey},
		{"skew", kdcErr(37), ErrClockSkew},
		{"as-rep sealed with another key", krberror.Errorf(errors.New("integrity verification failed"), krberror.DecryptingError, "error decrypting EncPart of AS_REP"), ErrWrongKey},
		{"kdc skew check", krberror.NewErrorf(krberror.KRBMsgError, "clock skew with KDC too large. Greater than 300 seconds"), ErrClockSkew},
		{"no kdc", krberror.Errorf(errors.New("failed to communicate with KDC. Attempts made with TCP (dial tcp 127.0.0.1:88: connect: connection refused)"), krberror.NetworkingError, "AS Exchange Error: failed sending AS_REQ to KDC"), ErrKDCUnreachable},
		{"something else", kdcErr(12), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := classifyKerberos(tc.err); got != tc.want {
				t.Fatalf("classifyKerberos(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestKeytabHolds(t *testing.T) {
	kt := keytab.New()
	for _, p := range []string{"curator", "zookeeper/localhost"} {
		if err := kt.AddEntry(p, "EXAMPLE.COM", "secret-"+p, time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
			t.Fatal(err)
		}
	}
	if err := keytabHolds(kt, "k.keytab", "zookeeper/localhost", "EXAMPLE.COM"); err != nil {
		t.Fatalf("a principal the keytab holds: %v", err)
	}
	err := keytabHolds(kt, "k.keytab", "ops", "EXAMPLE.COM")
	if !errors.Is(err, ErrKeytab) || !strings.Contains(err.Error(), "only of curator@EXAMPLE.COM, zookeeper/localhost@EXAMPLE.COM") {
		t.Fatalf("another principal's keytab: %v", err)
	}
	if err := keytabHolds(kt, "k.keytab", "curator", "OTHER.COM"); !errors.Is(err, ErrKeytab) {
		t.Fatalf("the same name in another realm: %v", err)
	}
}
