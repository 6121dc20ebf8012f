package kdc

import (
	"errors"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// ZooKeeperPrincipal is the principal ZooKeeper's servers log in as
// unless a cluster names another: zookeeper/HOST, the service the Java
// client and zklocks ask a ticket for by default.
const ZooKeeperPrincipal = "zookeeper/localhost"

// CuratorPrincipal is the principal of the Curator peer that
// [ZooKeeper.CuratorHolds] starts.
const CuratorPrincipal = "curator"

// holdBackstop bounds the wait for a lone Curator contender to hold its
// lock: a JVM starting on a loaded machine, not a timing assertion.
const holdBackstop = 2 * time.Minute

// ZooKeeper is a ZooKeeper server that authenticates its clients by
// Kerberos in a realm of its own: the realm's KDC and the server, both
// stopped by t's Cleanup.
type ZooKeeper struct {
	*Realm
	// Server is the ZooKeeper; its clients' principals are sasl: ids in
	// its ACLs.
	Server *zktest.Server
}

// StartZooKeeper starts the realm ZKLOCKS.TEST with the principals
// service (ZooKeeper's own, such as [ZooKeeperPrincipal]) and clients,
// each with a random key, and a ZooKeeper whose service principal logs
// in from its keytab (Krb5LoginModule, a JAAS Server section) with the
// SASLAuthenticationProvider. It points this process's Kerberos clients
// at the realm for t's life (KRB5_CONFIG, as an operator's environment
// does), so t may not be parallel. The clients' keytabs are the test's to
// write ([Realm.Keytab]): each one written gives its principals new keys.
func StartZooKeeper(t testing.TB, service string, clients ...string) *ZooKeeper {
	t.Helper()
	z := StartZooKeeperParallel(t, service, clients...)
	t.Setenv("KRB5_CONFIG", z.Krb5Conf)
	return z
}

// StartZooKeeperParallel is [StartZooKeeper] for a parallel test: it
// leaves the environment alone, so the test's Kerberos clients must be
// given the realm's krb5.conf ([Realm.Krb5Conf]) themselves.
func StartZooKeeperParallel(t testing.TB, service string, clients ...string) *ZooKeeper {
	t.Helper()
	realm := Start(t, "ZKLOCKS.TEST")
	realm.AddPrincipal(append([]string{service}, clients...)...)
	keytab := realm.Keytab(strings.ReplaceAll(service, "/", "_")+".keytab", service)
	srv := zktest.Start(t,
		zktest.WithConfig("authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider"),
		zktest.WithJVMFlags(realm.JavaFlags(realm.JAAS("Server", service, keytab))...))
	return &ZooKeeper{Realm: realm, Server: srv}
}

// CuratorHolds makes dir a lock directory that anyone may read (the
// peer's own session finds its contender's node so) and only
// [CuratorPrincipal] and the principals changers may change (its missing
// parents open to all), and starts a Curator peer logged in from its
// keytab as CuratorPrincipal (which StartZooKeeper must have been given),
// whose contender "holder" takes a mutex in dir. It returns that
// contender once it holds the lock: an unauthenticated session may read
// the holder's node and not delete it.
func (z *ZooKeeper) CuratorHolds(t testing.TB, dir string, changers ...string) peers.Contender {
	t.Helper()
	plain := z.Server.Connect(t)
	var parents []string
	for p := path.Dir(dir); p != "/"; p = path.Dir(p) {
		parents = append([]string{p}, parents...)
	}
	for _, p := range parents {
		create(t, plain, p, zk.WorldACL(zk.PermAll))
	}
	acl := append(zk.WorldACL(zk.PermRead), zk.ACL{Perms: zk.PermAll, Scheme: "sasl", ID: z.Principal(CuratorPrincipal)})
	for _, p := range changers {
		acl = append(acl, zk.ACL{Perms: zk.PermAll, Scheme: "sasl", ID: z.Principal(p)})
	}
	if _, err := plain.Create(dir, nil, 0, acl); err != nil {
		t.Fatalf("kdc: create the lock directory %s: %v", dir, err)
	}
	keytab := z.Keytab(CuratorPrincipal+".keytab", CuratorPrincipal)
	curator := peers.Start(t, peers.Curator, z.Server.Addr(),
		peers.WithJVMFlags(z.JavaFlags(z.JAAS("Client", CuratorPrincipal, keytab))...))
	holder := curator.Acquire(t, "holder", "mutex", dir)
	curator.WaitHeld(t, "holder", holdBackstop)
	return holder
}

// create creates the node p with acl, unless it exists.
func create(t testing.TB, conn *zk.Conn, p string, acl []zk.ACL) {
	t.Helper()
	if _, err := conn.Create(p, nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatalf("kdc: create %s: %v", p, err)
	}
}
