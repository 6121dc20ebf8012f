package sasl_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// TestIntegrationKerberosLoginErrors logs in against a real MIT KDC with
// each thing an operator gets wrong, and checks that each gives its own
// error, naming what to fix.
func TestIntegrationKerberosLoginErrors(t *testing.T) {
	realm := kdc.Start(t, "ZKLOCKS.TEST")
	realm.AddPrincipal("ops", "curator", "zookeeper/localhost")
	old := realm.Keytab("ops-old.keytab", "ops")
	current := realm.Keytab("ops.keytab", "ops") // a new key: old's is stale
	curator := realm.Keytab("curator.keytab", "curator")
	ghost := filepath.Join(t.TempDir(), "ghost.keytab")
	writeKeytab(t, ghost, "ghost", realm.Name)
	noRealm := filepath.Join(t.TempDir(), "krb5.conf")
	if err := os.WriteFile(noRealm, []byte("[libdefaults]\n    default_realm = "+realm.Name+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	login := func(principal, kt, conf string) (*sasl.Kerberos, error) {
		return sasl.NewKerberos(sasl.KerberosConfig{Principal: principal, Keytab: kt, Krb5Conf: conf})
	}

	k, err := login("ops", current, realm.Krb5Conf)
	if err != nil {
		t.Fatalf("login with the current keytab: %v", err)
	}
	defer k.Close()
	if got, want := k.Principal(), realm.Principal("ops"); got != want {
		t.Fatalf("Principal = %q, want %q", got, want)
	}
	if _, err := k.Mechanism("127.0.0.1"); err != nil {
		t.Fatalf("a service ticket for zookeeper/localhost: %v", err)
	}

	for _, tc := range []struct {
		name, principal, keytab, conf string
		want                          error
		says                          []string
	}{
		{"stale keytab", "ops", old, realm.Krb5Conf, sasl.ErrWrongKey, []string{"ops@ZKLOCKS.TEST", old}},
		{"keytab of another principal", "ops", curator, realm.Krb5Conf, sasl.ErrKeytab, []string{"no key of ops@ZKLOCKS.TEST", "curator@ZKLOCKS.TEST"}},
		{"principal the KDC does not know", "ghost", ghost, realm.Krb5Conf, sasl.ErrUnknownPrincipal, []string{"ghost@ZKLOCKS.TEST"}},
		{"krb5.conf without the realm", "ops", current, noRealm, sasl.ErrKerberosConfig, []string{noRealm, "no kdc for realm ZKLOCKS.TEST"}},
		{"missing keytab", "ops", current + ".gone", realm.Krb5Conf, sasl.ErrKeytab, []string{current + ".gone"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := login(tc.principal, tc.keytab, tc.conf)
			t.Logf("%v", err)
			checkErr(t, err, tc.want, tc.says...)
		})
	}

	// A credential cache, as kinit leaves it: the login takes its
	// principal, and refuses to be another principal.
	cache := realm.Kinit("ops", current)
	fromCache, err := sasl.NewKerberos(sasl.KerberosConfig{CCache: cache, Krb5Conf: realm.Krb5Conf})
	if err != nil {
		t.Fatalf("login from the credential cache: %v", err)
	}
	defer fromCache.Close()
	if got, want := fromCache.Principal(), realm.Principal("ops"); got != want {
		t.Fatalf("the cache's login is %q, want %q", got, want)
	}
	if _, err := fromCache.Mechanism("127.0.0.1"); err != nil {
		t.Fatalf("a service ticket from the cache's ticket-granting ticket: %v", err)
	}
	_, err = sasl.NewKerberos(sasl.KerberosConfig{Principal: "curator", CCache: cache, Krb5Conf: realm.Krb5Conf})
	t.Logf("another principal's cache: %v", err)
	checkErr(t, err, sasl.ErrCredentialCache, cache, "ops@ZKLOCKS.TEST", "not of curator@ZKLOCKS.TEST")

	// The service ticket got above is kept: a new connection needs no
	// KDC while it is valid.
	realm.Stop()
	if _, err := k.Mechanism("127.0.0.1"); err != nil {
		t.Fatalf("a kept service ticket with the KDC stopped: %v", err)
	}
	_, err = login("ops", current, realm.Krb5Conf)
	t.Logf("KDC stopped: %v", err)
	checkErr(t, err, sasl.ErrKDCUnreachable, "no KDC of ZKLOCKS.TEST answered", "127.0.0.1")
}

// checkErr fails t unless err matches want and its message says each of
// says.
func checkErr(t *testing.T, err, want error, says ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	for _, other := range []error{sasl.ErrWrongKey, sasl.ErrKeytab, sasl.ErrUnknownPrincipal, sasl.ErrKerberosConfig,
		sasl.ErrKDCUnreachable, sasl.ErrClockSkew, sasl.ErrCredentialCache} {
		if other != want && errors.Is(err, other) {
			t.Errorf("error %q also matches %v", err, other)
		}
	}
}

// writeKeytab writes a keytab holding a key of name@realm that no KDC
// issued.
func writeKeytab(t *testing.T, path, name, realm string) {
	t.Helper()
	kt := keytab.New()
	if err := kt.AddEntry(name, realm, "not a principal of the realm", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
