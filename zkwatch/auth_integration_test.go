package zkwatch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationAuthAfterReconnect checks what go-zookeeper's source says:
// credentials added once are sent again on every new connection. The server
// keeps a connection's credentials with the connection, so after a restart
// only a re-sent credential lets the session read a digest-protected lock.
//
// The session timeout is short because of a ZooKeeper 3.8.0 bug: a client
// that reconnects while the restarted server is still loading its database
// gets neither an answer nor a close (an NPE in the server's close path), and
// go-zookeeper waits ten times two thirds of the session timeout for the
// answer before it tries again: 67 s for a 10 s session, 13 s for a 2 s one,
// by when the session has usually expired; the credentials must then reach
// the new session as well.
func TestIntegrationAuthAfterReconnect(t *testing.T) {
	t.Parallel()
	const password = "re-sent-Pa55w0rd"
	srv := zktest.Start(t)
	admin := srv.Connect(t)
	if err := admin.AddAuth("digest", []byte("ops:"+password)); err != nil {
		t.Fatal(err)
	}
	acl := zk.DigestACL(zk.PermAll, "ops", password)
	for _, p := range []string{"/secret", "/secret/lock-0000000000"} {
		if _, err := admin.Create(p, nil, 0, acl); err != nil {
			t.Fatalf("create %s: %v", p, err)
		}
	}

	logPath := filepath.Join(t.TempDir(), "zk.log")
	lg, err := OpenLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := Dial(ctx, Options{Target: Target{Servers: []string{srv.Addr()}}, SessionTimeout: 2 * time.Second,
		Auth: []Auth{DigestAuth("ops", password)}, Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ReadTree(ctx, "/secret"); err != nil {
		t.Fatalf("read with credentials: %v", err)
	}

	before := c.SessionID()
	srv.Restart()
	deadline := time.Now().Add(40 * time.Second)
	for {
		readCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		tree, err := c.ReadTree(readCtx, "/secret")
		cancel()
		if err == nil {
			if len(tree.Children) != 1 {
				t.Fatalf("children after reconnect: %+v", tree.Children)
			}
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logPath)
			t.Fatalf("no read after the restart: %v; log:\n%s", err, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("session before the restart 0x%x, after 0x%x", before, c.SessionID())

	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Error("the reconnect left nothing in the log")
	}
	if strings.Contains(string(b), password) {
		t.Errorf("the password is in the log:\n%s", b)
	}
	t.Logf("log:\n%s", b)
}
