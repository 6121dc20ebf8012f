//go:build !race

package lockclient_test

// These tests drop a holder's connection while it watches its own node, so
// go-zookeeper re-registers the watch on reconnect and races with itself
// (Conn.recvLoop writes lastZxid at conn.go:849 while Conn.sendSetWatches
// reads it at conn.go:614): they run without -race (make test's second
// invocation).

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

func TestIntegrationReconnectHolders(t *testing.T) {
	zks := zktest.Start(t)
	look := zks.Connect(t)
	t.Run("connection dropped, session alive: release still removes our node", func(t *testing.T) {
		proxy := zktest.NewProxy(t, zks.Addr())
		conn, _, err := zk.Connect([]string{proxy.Addr()}, 10*time.Second, zk.WithLogger(discard{}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(conn.Close)
		held, err := lockclient.Acquire(context.Background(), conn, lockclient.Spec{Path: "/lost3", Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		proxy.Drop()
		select {
		case <-held.Lost():
		case <-time.After(wait):
			t.Fatal("the drop was not noticed")
		}
		if err := held.Release(context.Background()); !errors.Is(err, lockclient.ErrLockLost) {
			t.Fatalf("release after a drop: %v", err)
		}
		if ok, _, _ := zks.Connect(t).Exists(held.Node); ok {
			t.Fatal("our node outlived the release, blocking everyone behind it")
		}
	})
	t.Run("session expired", func(t *testing.T) {
		proxy := zktest.NewProxy(t, zks.Addr())
		conn, _, err := zk.Connect([]string{proxy.Addr()}, 2*time.Second, zk.WithLogger(discard{}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(conn.Close)
		held, err := lockclient.Acquire(context.Background(), conn, lockclient.Spec{Path: "/lost2", Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		proxy.Blackhole(true)
		time.Sleep(4 * time.Second) // twice the session timeout
		proxy.Blackhole(false)
		select {
		case <-held.Lost():
		case <-time.After(wait):
			t.Fatal("the expiry was not noticed")
		}
		// The drop is noticed before the server expires the session.
		if !errors.Is(held.Err(), lockclient.ErrLockLost) || !strings.Contains(held.Err().Error(), "connection dropped") {
			t.Fatalf("loss: %v", held.Err())
		}
	})
	t.Run("release while disconnected", func(t *testing.T) {
		const path = "/release-disconnected"
		proxy := zktest.NewProxy(t, zks.Addr())
		conn, _, err := zk.Connect([]string{proxy.Addr()}, 10*time.Second, zk.WithLogger(discard{}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(conn.Close)
		h, err := lockclient.Acquire(context.Background(), conn, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		proxy.Blackhole(true)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		h.Release(ctx)
		if len(children(t, look, path)) != 1 {
			t.Fatal("the node went while its client could not reach the server")
		}
		proxy.Blackhole(false)
		eventually(t, "the node is deleted once the connection is back", func() bool { return len(children(t, look, path)) == 0 })
		if conn.State() != zk.StateHasSession {
			t.Fatalf("the session should have lived on: %s", conn.State())
		}
	})
	t.Run("told by the session's events", func(t *testing.T) {
		proxy := zktest.NewProxy(t, zks.Addr())
		session := new(lockclient.Session)
		conn, _, err := zk.Connect([]string{proxy.Addr()}, 10*time.Second, zk.WithLogger(discard{}), zk.WithEventCallback(session.Event))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(conn.Close)
		held, err := lockclient.Acquire(context.Background(), lockclient.WithSession(conn, session), lockclient.Spec{Path: "/lost4", Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		proxy.Drop()
		select {
		case <-held.Lost():
		case <-time.After(wait):
			t.Fatal("the drop was not noticed")
		}
		if !strings.Contains(held.Err().Error(), "connection dropped") {
			t.Fatalf("loss: %v", held.Err())
		}
		held.Release(context.Background())
	})
}
