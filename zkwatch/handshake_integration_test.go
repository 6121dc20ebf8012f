package zkwatch_test

import (
	"context"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationDialGivesUpASwallowedHandshake: a server that accepts a
// connection and never answers its connect request (ZooKeeper while it
// still loads its data) holds the session's handshake no longer than the
// session timeout, after which the next attempt gets a session; where
// go-zookeeper alone waits ten times two thirds of it (20 s here).
func TestIntegrationDialGivesUpASwallowedHandshake(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	proxy := zktest.NewProxy(t, zks.Addr())
	proxy.Blackhole(true)
	const session = 3 * time.Second
	// Less than go-zookeeper's own wait for the swallowed answer.
	ctx, cancel := context.WithTimeout(context.Background(), 10*2/3*session-2*time.Second)
	defer cancel()
	dialed := make(chan error, 1)
	go func() {
		conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: zkwatch.Target{Servers: []string{proxy.Addr()}}, SessionTimeout: session})
		if err == nil {
			conn.Close()
		}
		dialed <- err
	}()
	for proxy.Held() == 0 {
		select {
		case err := <-dialed:
			t.Fatalf("dial ended before its first connection was swallowed: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	proxy.Admit()
	if err := <-dialed; err != nil {
		t.Fatalf("the swallowed handshake held the session past go-zookeeper's own bound: %v", err)
	}
}
