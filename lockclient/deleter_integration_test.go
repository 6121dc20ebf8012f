package lockclient

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"

	"github.com/zklocks/zklocks/lockcore"
)

type discardLog struct{}

func (discardLog) Printf(string, ...interface{}) {}

// A guaranteed delete across a reconnect, with no watch set (so it runs
// under -race: go-zookeeper's own race needs watches to re-register), and
// the session's events relayed on the way.
func TestIntegrationGuaranteedDeleteAcrossReconnect(t *testing.T) {
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	var session Session
	states := make(chan zk.State, 64)
	stop := session.OnState(func(s zk.State) {
		select {
		case states <- s:
		default:
		}
	})
	defer stop()
	conn, _, err := zk.Connect([]string{proxy.Addr()}, 10*time.Second, zk.WithLogger(discardLog{}), zk.WithEventCallback(session.Event))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	client := NewClient(WithSession(conn, &session))
	c := clientConn{ZK: client.zk, owner: client}
	q, err := enqueue(t.Context(), c, "/guaranteed", lockcore.RecipeCuratorMutex, lockcore.ModeExclusive, nil)
	if err != nil {
		t.Fatal(err)
	}
	proxy.Blackhole(true)
	forget(c, q.owned)
	time.Sleep(300 * time.Millisecond)
	look := zks.Connect(t)
	if ok, _, _ := look.Exists(q.path); !ok {
		t.Fatal("the node went while its client could not reach the server")
	}
	proxy.Blackhole(false)
	if err := client.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := look.Exists(q.path); ok {
		t.Fatal("the node outlived its guaranteed delete")
	}
	if conn.SessionID() != q.session {
		t.Fatal("the session should have lived on")
	}
	dropped := false
	for len(states) > 0 {
		if s := <-states; s == zk.StateDisconnected || s == zk.StateConnecting {
			dropped = true
		}
	}
	if !dropped {
		t.Fatal("the session's events did not tell of the drop")
	}
}

// Closing a Client stops its guaranteed deletes while they cannot reach a
// server, and closing the connection then takes the node with the session.
func TestIntegrationCloseStopsGuaranteedDeletes(t *testing.T) {
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	conn, _, err := zk.Connect([]string{proxy.Addr()}, 10*time.Second, zk.WithLogger(discardLog{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	client := NewClient(conn)
	c := clientConn{ZK: conn, owner: client}
	q, err := enqueue(t.Context(), c, "/closed", lockcore.RecipeCuratorMutex, lockcore.ModeExclusive, nil)
	if err != nil {
		t.Fatal(err)
	}
	proxy.Blackhole(true)
	forget(c, q.owned)
	closed := make(chan struct{})
	go func() { client.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close did not stop a delete that cannot reach a server")
	}
	if _, err := client.Acquire(t.Context(), Spec{Path: "/closed"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Acquire after Close: %v, want ErrClosed", err)
	}
	look := zks.Connect(t)
	if ok, _, _ := look.Exists(q.path); !ok {
		t.Fatal("the node went while its client could not reach the server")
	}
	proxy.Blackhole(false)
	conn.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		ok, _, err := look.Exists(q.path)
		if err == nil && !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the node outlived its closed session")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A delete asked for while go-zookeeper has no connection waits inside it
// until it gets one; with the server out of reach that is never, and
// Close must not wait for it.
func TestIntegrationCloseDoesNotWaitForARequestHeldWithoutAConnection(t *testing.T) {
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	conn, _, err := zk.Connect([]string{proxy.Addr()}, 2*time.Second, zk.WithLogger(discardLog{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	client := NewClient(conn)
	c := clientConn{ZK: conn, owner: client}
	q, err := enqueue(t.Context(), c, "/held", lockcore.RecipeCuratorMutex, lockcore.ModeExclusive, nil)
	if err != nil {
		t.Fatal(err)
	}
	proxy.Blackhole(true)
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if conn.State() == zk.StateHasSession {
			return "go-zookeeper never lost its connection to the blackholed server"
		}
		return ""
	})
	forget(c, q.owned)
	time.Sleep(100 * time.Millisecond) // the delete's read is now held for a connection
	closed := make(chan struct{})
	go func() { client.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a request held until a connection that never comes")
	}
}
