package sasl

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
)

// sessionKey returns the session key of m's service ticket: a new key
// means a new ticket from the KDC.
func sessionKey(t *testing.T, m Mechanism) []byte {
	t.Helper()
	g, ok := m.(*gssapiMechanism)
	if !ok {
		t.Fatalf("mechanism %T, want the GSSAPI one", m)
	}
	return g.t.SessionKey.KeyValue
}

// TestIntegrationKerberosTicketsExpire: with a KDC that issues tickets for
// a few seconds, a login keeps its service ticket while it is valid and
// gets new tickets (and, its ticket-granting ticket expired too, logs in
// again from the keytab) once they expire. A login from a credential cache
// renews its ticket-granting ticket when it is renewable, and says to
// kinit again when it is not.
func TestIntegrationKerberosTicketsExpire(t *testing.T) {
	const life = 15 * time.Second
	realm := kdc.Start(t, "ZKLOCKS.TEST", kdc.MaxLife(life))
	realm.AddPrincipal("ops", "kinit", "once", "zookeeper/localhost")
	realm.Kadmin("modprinc -maxrenewlife 0 once")
	start := time.Now()
	k, err := NewKerberos(KerberosConfig{Principal: "ops", Keytab: realm.Keytab("ops.keytab", "ops"), Krb5Conf: realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	mechanism := func() Mechanism {
		t.Helper()
		m, err := k.Mechanism("127.0.0.1")
		if err != nil {
			t.Fatalf("%v after %v: %v", realm.Principal("ops"), time.Since(start).Round(time.Second), err)
		}
		return m
	}
	var caches []*Kerberos
	for _, p := range []string{"kinit", "once"} {
		c, err := NewKerberos(KerberosConfig{CCache: realm.Kinit(p, realm.Keytab(p+".keytab", p)), Krb5Conf: realm.Krb5Conf})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		caches = append(caches, c)
	}
	renewable, once := caches[0], caches[1]
	first := sessionKey(t, mechanism())
	again := sessionKey(t, mechanism())
	// Both were asked for within the ticket's life unless the machine is
	// loaded past it; the comparison means something only then.
	if time.Since(start) < life/2 && !bytes.Equal(first, again) {
		t.Fatalf("a second connection within the ticket's life got a new ticket: the service ticket is not kept")
	}
	// Wait past the KDC's end time of every ticket of the login (the
	// KDC's clock is this host's).
	time.Sleep(time.Until(start.Add(life + time.Second)))
	if later := sessionKey(t, mechanism()); bytes.Equal(later, first) {
		t.Fatalf("a connection after the ticket expired got the expired ticket")
	}
	if _, err := renewable.Mechanism("127.0.0.1"); err != nil {
		t.Fatalf("a login from a cache whose renewable ticket expired: %v", err)
	}
	_, err = once.Mechanism("127.0.0.1")
	if !errors.Is(err, ErrCredentialCache) || !strings.Contains(err.Error(), "kinit again") {
		t.Fatalf("a login from a cache whose ticket expired, not renewable: %v, want ErrCredentialCache saying to kinit again", err)
	}
	t.Logf("%v", err)
}

// TestIntegrationKerberosKeytabRotation: a keytab replaced on disk (the
// principal's key rotated) is read again before the next connection, and
// one that no longer holds the principal's current key says so.
func TestIntegrationKerberosKeytabRotation(t *testing.T) {
	realm := kdc.Start(t, "ZKLOCKS.TEST")
	realm.AddPrincipal("ops", "zookeeper/localhost")
	path := realm.Keytab("ops.keytab", "ops")
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKerberos(KerberosConfig{Principal: "ops", Keytab: path, Krb5Conf: realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	m, err := k.Mechanism("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	first := sessionKey(t, m)

	// The key is rotated and the new keytab put in place, as an
	// operator's tooling does: written aside, renamed over the old.
	rotated := realm.Keytab("ops-rotated.keytab", "ops")
	if err := os.Rename(rotated, path); err != nil {
		t.Fatal(err)
	}
	m, err = k.Mechanism("127.0.0.1")
	if err != nil {
		t.Fatalf("after the keytab was rotated: %v", err)
	}
	if bytes.Equal(sessionKey(t, m), first) {
		t.Fatalf("after the keytab changed, the old login's ticket was used: the keytab was not read again")
	}

	// The old keytab put back: its key is no longer the principal's.
	tmp := filepath.Join(filepath.Dir(path), "ops.keytab.tmp")
	if err := os.WriteFile(tmp, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Mechanism("127.0.0.1"); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("with a stale keytab in place: %v, want ErrWrongKey", err)
	}
}
