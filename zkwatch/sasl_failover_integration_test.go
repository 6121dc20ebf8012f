//go:build !race

package zkwatch_test

// Without -race, as the other reconnect tests: go-zookeeper races with
// itself re-registering watches on a new connection.

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// TestIntegrationSASLFailover stops the member a watcher's session is
// connected to, on a three-member ensemble that requires SASL: the
// session authenticates again on the member it fails over to (else every
// request of it would be refused and the session closed), whoAmI there
// says so, and the lock client's FIFO queue and the watcher's picture
// carry on: the waiter gets the lock when the holder releases, and the
// watcher sees it.
func TestIntegrationSASLFailover(t *testing.T) {
	users := map[string]string{"ops": "ops-F4il0ver-pw"}
	e := zktest.StartEnsemble(t, 3, zktest.SASLDigest(t, users, true))
	opts := zkwatch.Options{SessionTimeout: 4 * time.Second, Auth: []zkwatch.Auth{zkwatch.SASLDigestAuth("ops", users["ops"])}}
	// The watcher is on the followers, and the member stopped is one of
	// them: the ensemble keeps its quorum, and the other sessions their
	// connections (every member drops its clients while a new leader is
	// elected).
	members := e.Members()
	leader := members[e.Leader()]
	var followers []string
	for _, m := range members {
		if m != leader {
			followers = append(followers, m.Addr())
		}
	}
	watched := watchtest.Dial(t, strings.Join(followers, ","), opts)
	acl := []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "ops"}}
	if _, err := watched.LockZK().Create("/f", nil, 0, acl); err != nil {
		t.Fatal(err)
	}
	feed := watchtest.Watch(t, watched, zkwatch.WatchConfig{Roots: []string{"/f"}, Locks: []string{"/f"}})
	var member string
	feed.Until(t, "the lock parent", func(s *model.State) bool {
		member = s.Conn.Server
		return s.Locks["/f"] != nil && member != ""
	})
	// The persistent watch's session of zklocks' own authenticates too:
	// without it, the server would close that session at its addWatch.
	feed.Until(t, "the persistent watch live", func(s *model.State) bool { return s.Discovery.Persistent.Live })
	// The holder stays on the leader: a holder whose connection drops is
	// told its lock may be lost, which is the lock client's rule, not
	// what this test is about. The waiter may be on any member, the one
	// stopped too.
	holder := watchtest.Dial(t, leader.Addr(), opts)
	waiter := watchtest.Dial(t, e.ConnectString(), opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first, err := lockclient.Acquire(ctx, holder.LockZK(), lockclient.Spec{Path: "/f", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatalf("first acquire: %v", err)
	}
	second := make(chan error, 1)
	var next *lockclient.Held
	go func() {
		h, err := lockclient.Acquire(ctx, waiter.LockZK(), lockclient.Spec{Path: "/f", Mode: lockcore.ModeExclusive})
		next = h
		second <- err
	}()
	feed.Until(t, "the holder and the waiter", func(s *model.State) bool {
		l := s.Locks["/f"]
		return l != nil && len(l.Participants) == 2
	})
	session := watched.SessionID()
	for _, m := range e.Members() {
		if m.Addr() == member {
			m.Stop()
		}
	}
	feed.Until(t, "the failover to another member", func(s *model.State) bool {
		return s.Conn.Phase == zkwatch.Connected && s.Conn.Server != member && s.Conn.Server != ""
	})
	if watched.SessionID() != session {
		t.Fatalf("a new session (%x, was %x): the test wants a failover of the same session", watched.SessionID(), session)
	}
	who, err := watched.WhoAmI(ctx)
	if err != nil || !who.FromServer || who.String() == "" || !hasIdentity(who, "sasl", "ops") {
		t.Fatalf("whoAmI after the failover: %v, %v", who, err)
	}
	if p := watched.AuthProblem(); p != nil {
		t.Fatalf("AuthProblem after the failover: %v", p)
	}

	if err := first.Release(ctx); err != nil {
		t.Fatalf("release: %v", err)
	}
	select {
	case err := <-second:
		if err != nil {
			t.Fatalf("the waiter's acquire: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the waiter never got the lock")
	}
	defer next.Release(context.Background())
	feed.Until(t, "the waiter holding alone", func(s *model.State) bool {
		l := s.Locks["/f"]
		return l != nil && len(l.Participants) == 1 && l.Participants[0].Session == waiter.SessionID()
	})
}

func hasIdentity(ids zkwatch.Identities, scheme, id string) bool {
	for _, i := range ids.List {
		if i.Scheme == scheme && i.ID == id {
			return true
		}
	}
	return false
}

// TestIntegrationSASLRefusedOnReconnect restarts the server with the
// operator's password changed: the watcher's reconnect is refused, and
// the watcher says so (an error event naming the refusal), not only that
// the connection was lost.
func TestIntegrationSASLRefusedOnReconnect(t *testing.T) {
	jaas := filepath.Join(t.TempDir(), "jaas.conf")
	zks := zktest.Start(t, zktest.SASLDigestAt(t, jaas, map[string]string{"ops": "before-Pa55"}, true))
	opts := zkwatch.Options{SessionTimeout: 2 * time.Second, Auth: []zkwatch.Auth{zkwatch.SASLDigestAuth("ops", "before-Pa55")}}
	conn := watchtest.Dial(t, zks.Addr(), opts)
	feed := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/"}})
	feed.Until(t, "connected", func(s *model.State) bool { return s.Conn.Phase == zkwatch.Connected })
	zks.Stop()
	zktest.WriteJAAS(t, jaas, map[string]string{"ops": "after-Pa55"})
	zks.Restart()
	feed.UntilEvent(t, "the refusal told", func(ev zkwatch.Event) bool {
		return ev.Kind == zkwatch.EventError && errors.Is(ev.Err, zkwatch.ErrSASLRejected) &&
			strings.Contains(ev.Err.Error(), "wrong password or unknown user")
	})
	if p := conn.AuthProblem(); !errors.Is(p, zkwatch.ErrSASLRejected) {
		t.Fatalf("AuthProblem = %v", p)
	}
}
