package lockcore

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
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
	c := WithSession(conn, &session)
	q, err := enqueue(t.Context(), c, "/guaranteed", RecipeCuratorMutex, ModeExclusive, nil)
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
	pendingDeletes.Wait()
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
