package zkwatch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// saslUsers are the JAAS users of the SASL tests' servers.
var saslUsers = map[string]string{"ops": "ops-Pa55-w0rd", "reader": "reader-Pa55-w0rd"}

func dialSASL(t *testing.T, addr string, auth []Auth, timeout time.Duration) (*Conn, error, *bufLogger) {
	t.Helper()
	log := &bufLogger{}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := Dial(ctx, Options{Target: Target{Servers: []string{addr}}, Auth: auth, Logger: log})
	return c, err, log
}

// TestIntegrationSASLEnforced runs against a server that requires SASL of
// every session: the right credentials read what their ACL opens, a wrong
// password and an unknown user are refused as such at once, and a session
// without credentials is told the server requires SASL.
func TestIntegrationSASLEnforced(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t, zktest.SASLDigest(t, saslUsers, true))

	ops, err, _ := dialSASL(t, srv.Addr(), []Auth{SASLDigestAuth("ops", saslUsers["ops"])}, 30*time.Second)
	if err != nil {
		t.Fatalf("dial as ops: %v", err)
	}
	defer ops.Close()
	acl := []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "ops"}, {Perms: zk.PermRead, Scheme: "sasl", ID: "reader"}}
	for _, p := range []string{"/locks", "/locks/lock-0000000000"} {
		if _, err := ops.LockZK().Create(p, nil, 0, acl); err != nil {
			t.Fatalf("create %s: %v", p, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if tree, err := ops.ReadTree(ctx, "/locks"); err != nil || len(tree.Children) != 1 {
		t.Fatalf("read as ops: %d children, %v", len(tree.Children), err)
	}
	if p := ops.AuthProblem(); p != nil {
		t.Fatalf("AuthProblem after a good exchange: %v", p)
	}

	for _, tc := range []struct{ name, user, password string }{
		{"wrong password", "ops", "not-the-Pa55-w0rd"},
		{"unknown user", "nobody", "nobody-Pa55-w0rd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			c, err, log := dialSASL(t, srv.Addr(), []Auth{SASLDigestAuth(tc.user, tc.password)}, 30*time.Second)
			if err == nil {
				c.Close()
				t.Fatal("dial succeeded")
			}
			if !errors.Is(err, ErrSASLRejected) || !errors.Is(err, ErrAuthFailed) || errors.Is(err, ErrUnreachable) {
				t.Fatalf("err = %v; want ErrSASLRejected, not ErrUnreachable", err)
			}
			if !strings.Contains(err.Error(), "wrong password or unknown user") || !strings.Contains(err.Error(), tc.user) {
				t.Fatalf("err = %v; want it to say wrong password or unknown user, and name %s", err, tc.user)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Fatalf("a refusal took %v: Dial waited rather than giving up", took)
			}
			for _, out := range []string{err.Error(), log.String()} {
				if strings.Contains(out, tc.password) {
					t.Fatalf("the password shows: %s", out)
				}
			}
		})
	}

	t.Run("no credentials", func(t *testing.T) {
		c, err, _ := dialSASL(t, srv.Addr(), nil, 30*time.Second)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		defer c.Close()
		_, err = c.ReadTree(ctx, "/locks")
		if !errors.Is(err, ErrSASLRequired) {
			t.Fatalf("read without credentials: %v; want ErrSASLRequired", err)
		}
		if !strings.Contains(err.Error(), "requires sasl") {
			t.Fatalf("err = %v", err)
		}
	})
}
