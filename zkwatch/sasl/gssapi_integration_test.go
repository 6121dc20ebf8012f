package sasl_test

import (
	"slices"
	"testing"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// TestIntegrationKerberosForceReleaseCuratorLock: a Curator client
// authenticated by its keytab holds a lock under a directory whose ACL
// lets only two Kerberos principals change it; our GSSAPI mechanism,
// logged in by another keytab, authenticates to the real ZooKeeper over
// its SASL exchange, is the sasl: identity of its principal, reads the
// lock and force-releases it, which an unauthenticated session may not.
func TestIntegrationKerberosForceReleaseCuratorLock(t *testing.T) {
	k := kdc.StartZooKeeper(t, kdc.ZooKeeperPrincipal, kdc.CuratorPrincipal, "ops")
	opsKeytab := k.Keytab("ops.keytab", "ops")
	const dir = "/locks/kerberos"
	holder := k.CuratorHolds(t, dir, "ops")
	plain := k.Server.Connect(t)

	// The unauthenticated session sees the lock and may not release it.
	_, st, err := plain.Get(holder.Node)
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Delete(holder.Node, st.Version); err != zk.ErrNoAuth {
		t.Fatalf("an unauthenticated delete of %s: %v, want %v", holder.Node, err, zk.ErrNoAuth)
	}

	login, err := sasl.NewKerberos(sasl.KerberosConfig{Principal: "ops", Keytab: opsKeytab, Krb5Conf: k.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer login.Close()
	s := dial(t, k.Server.Addr())
	m, err := login.Mechanism("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	code, err := s.authenticate(m)
	if err != nil || code != jute.ErrOK {
		t.Fatalf("%v: the sasl exchange ended with %s, %v", s, jute.ErrorName(code), err)
	}
	if ids, want := s.whoAmI(), "sasl:"+k.Principal("ops"); !slices.Contains(ids, want) {
		t.Fatalf("%v is %v, want %s among them", s, ids, want)
	}

	names, code := s.children(dir)
	if code != jute.ErrOK || len(names) != 1 || dir+"/"+names[0] != holder.Node {
		t.Fatalf("children of %s: %v (%s), want the holder's node %s", dir, names, jute.ErrorName(code), holder.Node)
	}
	_, got, code := s.get(holder.Node)
	if code != jute.ErrOK || got.ephemeralOwner != holder.Session {
		t.Fatalf("the holder's node: owner 0x%x (%s), want the holder's session 0x%x", got.ephemeralOwner, jute.ErrorName(code), holder.Session)
	}
	if code := s.delete(holder.Node, got.version); code != jute.ErrOK {
		t.Fatalf("force-release of %s as ops: %s", holder.Node, jute.ErrorName(code))
	}
	if ok, _, err := plain.Exists(holder.Node); err != nil || ok {
		t.Fatalf("the holder's node after the force-release: exists %t, %v", ok, err)
	}
}
