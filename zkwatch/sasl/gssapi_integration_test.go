package sasl_test

import (
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// peersHoldBackstop bounds the wait for a lone contender to hold its lock,
// a JVM starting on a loaded machine.
const peersHoldBackstop = 2 * time.Minute

// kerberosServer is a ZooKeeper whose clients authenticate by Kerberos,
// with its realm: the server's principal zookeeper/localhost logs in from
// its keytab (Krb5LoginModule), and clients' principals are sasl: ids.
type kerberosServer struct {
	realm *kdc.Realm
	srv   *zktest.Server
}

// startKerberosServer starts a realm with principals beside ZooKeeper's
// own, and a ZooKeeper that authenticates its clients in it.
func startKerberosServer(t *testing.T, principals ...string) *kerberosServer {
	t.Helper()
	realm := kdc.Start(t, "ZKLOCKS.TEST")
	realm.AddPrincipal(append([]string{"zookeeper/localhost"}, principals...)...)
	jaas := realm.JAAS("Server", "zookeeper/localhost", realm.Keytab("zookeeper.keytab", "zookeeper/localhost"))
	srv := zktest.Start(t,
		zktest.WithConfig("authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider"),
		zktest.WithJVMFlags(realm.JavaFlags(jaas)...))
	return &kerberosServer{realm: realm, srv: srv}
}

// TestIntegrationKerberosForceReleaseCuratorLock: a Curator client
// authenticated by its keytab holds a lock under a directory whose ACL
// lets only two Kerberos principals change it; our GSSAPI mechanism,
// logged in by another keytab, authenticates to the real ZooKeeper over
// its SASL exchange, is the sasl: identity of its principal, reads the
// lock and force-releases it, which an unauthenticated session may not.
func TestIntegrationKerberosForceReleaseCuratorLock(t *testing.T) {
	k := startKerberosServer(t, "curator", "ops")
	curatorKeytab := k.realm.Keytab("curator.keytab", "curator")
	opsKeytab := k.realm.Keytab("ops.keytab", "ops")
	const dir = "/locks/kerberos"
	plain := k.srv.Connect(t)
	if _, err := plain.Create("/locks", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	// Anyone may list the lock (the peer's own session finds its
	// contender's node so), only the two principals may change it.
	acl := append(zk.WorldACL(zk.PermRead),
		zk.ACL{Perms: zk.PermAll, Scheme: "sasl", ID: k.realm.Principal("curator")},
		zk.ACL{Perms: zk.PermAll, Scheme: "sasl", ID: k.realm.Principal("ops")})
	if _, err := plain.Create(dir, nil, 0, acl); err != nil {
		t.Fatal(err)
	}

	curator := peers.Start(t, peers.Curator, k.srv.Addr(),
		peers.WithJVMFlags(k.realm.JavaFlags(k.realm.JAAS("Client", "curator", curatorKeytab))...))
	holder := curator.Acquire(t, "holder", "mutex", dir)
	curator.WaitHeld(t, "holder", peersHoldBackstop)

	// The unauthenticated session sees the lock and may not release it.
	_, st, err := plain.Get(holder.Node)
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Delete(holder.Node, st.Version); err != zk.ErrNoAuth {
		t.Fatalf("an unauthenticated delete of %s: %v, want %v", holder.Node, err, zk.ErrNoAuth)
	}

	login, err := sasl.NewKerberos(sasl.KerberosConfig{Principal: "ops", Keytab: opsKeytab, Krb5Conf: k.realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer login.Close()
	s := dial(t, k.srv.Addr())
	m, err := login.Mechanism("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	code, err := s.authenticate(m)
	if err != nil || code != jute.ErrOK {
		t.Fatalf("%v: the sasl exchange ended with %s, %v", s, jute.ErrorName(code), err)
	}
	if ids, want := s.whoAmI(), "sasl:"+k.realm.Principal("ops"); !slices.Contains(ids, want) {
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
