package zkwatch

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// TestIntegrationKerberosForceRelease: a Curator client logged in by its
// keytab holds a lock under a directory only two Kerberos principals may
// change; a Conn dialled with the other principal's keytab login is that
// principal to the server, reads the lock and force-releases it, which an
// unauthenticated session may not. With the KDC stopped, a login that has
// no ticket for the server yet fails its dial saying so.
func TestIntegrationKerberosForceRelease(t *testing.T) {
	// In parallel: its realm, server, keytabs and krb5.conf are its own,
	// and its logins are given their krb5.conf, not the environment's.
	t.Parallel()
	k := kdc.StartZooKeeperParallel(t, kdc.ZooKeeperPrincipal, kdc.CuratorPrincipal, "ops", "late")
	realm, srv := k.Realm, k.Server
	const dir = "/locks/kerberos"
	holder := k.CuratorHolds(t, dir, "ops")
	plain := srv.Connect(t)

	login, err := sasl.NewKerberos(sasl.KerberosConfig{Principal: "ops", Keytab: realm.Keytab("ops.keytab", "ops"), Krb5Conf: realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer login.Close()
	// A login with no service ticket yet, for the dial after the KDC stops.
	late, err := sasl.NewKerberos(sasl.KerberosConfig{Principal: "late", Keytab: realm.Keytab("late.keytab", "late"), Krb5Conf: realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Dial(ctx, Options{Target: Target{Servers: []string{srv.Addr()}}, Auth: []Auth{KerberosAuth(login)}})
	if err != nil {
		t.Fatalf("dial as %s: %v", login.Principal(), err)
	}
	defer c.Close()
	ids, err := c.WhoAmI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Identity{Scheme: "sasl", ID: realm.Principal("ops")}); !ids.FromServer || !slices.Contains(ids.List, want) {
		t.Fatalf("the session is %v, want %v as the server says", ids, want)
	}
	tree, err := c.ReadTree(ctx, dir)
	if err != nil || len(tree.Children) != 1 || dir+"/"+tree.Children[0].Name != holder.Node {
		t.Fatalf("the lock read as ops: %+v, %v; want the holder's node %s", tree.Children, err, holder.Node)
	}
	node := tree.Children[0]
	if node.Stat.EphemeralOwner != holder.Session {
		t.Fatalf("the holder's node is owned by 0x%x, want the holder's session 0x%x", node.Stat.EphemeralOwner, holder.Session)
	}
	if err := plain.Delete(holder.Node, node.Stat.Version); !errors.Is(err, zk.ErrNoAuth) {
		t.Fatalf("an unauthenticated force-release: %v, want %v", err, zk.ErrNoAuth)
	}
	if err := c.LockZK().Delete(holder.Node, node.Stat.Version); err != nil {
		t.Fatalf("force-release as ops: %v", err)
	}
	if ok, _, err := plain.Exists(holder.Node); err != nil || ok {
		t.Fatalf("the holder's node after the force-release: exists %t, %v", ok, err)
	}

	realm.Stop()
	// Dial tries again until its context ends: a KDC may come back.
	short, cancelShort := context.WithTimeout(ctx, 20*time.Second)
	defer cancelShort()
	_, err = Dial(short, Options{Target: Target{Servers: []string{srv.Addr()}}, Auth: []Auth{KerberosAuth(late)}})
	if !errors.Is(err, sasl.ErrKDCUnreachable) || !errors.Is(err, ErrAuthFailed) {
		t.Fatalf("dial with the KDC stopped and no ticket: %v, want sasl.ErrKDCUnreachable", err)
	}
	t.Logf("%v", err)
}
