package zkwatch_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/zkwatch"
)

func TestIntegrationReadNodeDetail(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	big := bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 250_000) // 1,000,000 bytes
	mkdirs(t, admin, root+"/n")
	if _, err := admin.Create(root+"/n/big", big, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Create(root+"/n/secret", []byte("x"), 0, zk.DigestACL(zk.PermAll, "ops", "s3cret")); err != nil {
		t.Fatal(err)
	}
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	d, err := conn.ReadNodeDetail(ctx, root+"/n/big")
	if err != nil {
		t.Fatal(err)
	}
	if d.Path != root+"/n/big" || d.DataLen != len(big) || len(d.Data) != zkwatch.NodeDataLimit || !d.Truncated() ||
		!bytes.Equal(d.Data, big[:zkwatch.NodeDataLimit]) || d.Stat.DataLength != int32(len(big)) {
		t.Fatalf("big node: path %s, %d of %d bytes, stat %+v", d.Path, len(d.Data), d.DataLen, d.Stat)
	}
	if len(d.ACL) != 1 || d.ACL[0].Scheme != "world" || d.ACL[0].ID != "anyone" || d.ACL[0].Perms != zk.PermAll {
		t.Fatalf("ACL = %+v", d.ACL)
	}

	if _, err := conn.ReadNodeDetail(ctx, root+"/n/missing"); !errors.Is(err, zkwatch.ErrNoNode) {
		t.Fatalf("missing node: %v, want ErrNoNode", err)
	}
	if _, err := conn.ReadNodeDetail(ctx, root+"/n/secret"); !errors.Is(err, zkwatch.ErrNoAuth) {
		t.Fatalf("ACL-denied node: %v, want ErrNoAuth", err)
	}
	if _, err := conn.ReadNodeDetail(ctx, "relative"); err == nil {
		t.Fatal("a relative path was accepted")
	}
	done, stop := context.WithCancel(ctx)
	stop()
	if _, err := conn.ReadNodeDetail(done, root+"/n/big"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read: %v", err)
	}
}

func TestIntegrationReadChildren(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	mkdirs(t, admin, root+"/kids", root+"/kids/b", root+"/kids/a", root+"/kids/c")
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	names, total, err := conn.ReadChildren(ctx, root+"/kids")
	if err != nil || total != 3 || strings.Join(names, ",") != "a,b,c" {
		t.Fatalf("children %v of %d, %v", names, total, err)
	}
	if _, _, err := conn.ReadChildren(ctx, root+"/kids/none"); !errors.Is(err, zkwatch.ErrNoNode) {
		t.Fatalf("missing node: %v, want ErrNoNode", err)
	}
}
