package lockclient_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// lossyZK is a connection whose replies get lost on cue: the request is
// applied by the server, the client hears ErrConnectionClosed.
type lossyZK struct {
	*zk.Conn
	mu sync.Mutex
	// loseCreates: creates whose reply is lost. lateCreates: creates that
	// fail, then are applied after the client's next Children (a create
	// that reached the server late, after the client looked for it).
	loseCreates, lateCreates, loseDeletes int
	late                                  []func()
}

func (l *lossyZK) Create(p string, data []byte, flags int32, acl []zk.ACL) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.lateCreates > 0:
		l.lateCreates--
		l.late = append(l.late, func() { l.Conn.Create(p, data, flags, acl) })
		return "", zk.ErrConnectionClosed
	case l.loseCreates > 0:
		l.loseCreates--
		l.Conn.Create(p, data, flags, acl)
		return "", zk.ErrConnectionClosed
	}
	return l.Conn.Create(p, data, flags, acl)
}

func (l *lossyZK) Children(p string) ([]string, *zk.Stat, error) {
	names, stat, err := l.Conn.Children(p)
	l.mu.Lock()
	late := l.late
	l.late = nil
	l.mu.Unlock()
	for _, f := range late {
		f()
	}
	return names, stat, err
}

func (l *lossyZK) Delete(p string, version int32) error {
	l.mu.Lock()
	lose := l.loseDeletes > 0
	if lose {
		l.loseDeletes--
	}
	l.mu.Unlock()
	if lose {
		return zk.ErrConnectionClosed
	}
	return l.Conn.Delete(p, version)
}

// children lists path's children, failing the test on error.
func children(t *testing.T, c *zk.Conn, path string) []string {
	t.Helper()
	names, _, err := c.Children(path)
	if err != nil && !errors.Is(err, zk.ErrNoNode) {
		t.Fatal(err)
	}
	return names
}

// eventually waits for cond, polling; the budget only bounds a hang.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestIntegrationLostRepliesLeaveNoNode(t *testing.T) {
	zks := zktest.Start(t)
	look := zks.Connect(t)
	for _, recipe := range []lockcore.Recipe{lockcore.RecipeCuratorMutex, lockcore.RecipeKazooLock, lockcore.RecipeGoZKLock} {
		t.Run(string(recipe)+"/lost create reply", func(t *testing.T) {
			path := "/lost-create/" + string(recipe)
			c := &lossyZK{Conn: zks.Connect(t), loseCreates: 1}
			h, err := lockclient.Acquire(context.Background(), c, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive, Recipe: recipe})
			if err != nil {
				t.Fatal(err)
			}
			if names := children(t, look, path); len(names) != 1 {
				t.Fatalf("one contender, one node: %v", names)
			}
			if err := h.Release(context.Background()); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the lock is empty", func() bool { return len(children(t, look, path)) == 0 })
		})
		t.Run(string(recipe)+"/late create", func(t *testing.T) {
			path := "/late-create/" + string(recipe)
			c := &lossyZK{Conn: zks.Connect(t), lateCreates: 1}
			h, err := lockclient.Acquire(context.Background(), c, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive, Recipe: recipe})
			if err != nil {
				t.Fatal(err)
			}
			// The first create landed after we looked: its twin, behind
			// us, would head the queue once we release. It goes.
			eventually(t, "the late twin is deleted", func() bool { return len(children(t, look, path)) == 1 })
			if err := h.Release(context.Background()); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the lock is empty", func() bool { return len(children(t, look, path)) == 0 })
		})
	}
	t.Run("lost delete reply on release", func(t *testing.T) {
		const path = "/lost-delete"
		c := &lossyZK{Conn: zks.Connect(t), loseDeletes: 3}
		h, err := lockclient.Acquire(context.Background(), c, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := h.Release(ctx); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "background") {
			t.Fatalf("release with the connection failing and no time left: %v", err)
		}
		// The session lives on; the delete is retried until it succeeds.
		eventually(t, "the released node is deleted", func() bool { return len(children(t, look, path)) == 0 })
		next, err := lockclient.Acquire(context.Background(), zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		next.Release(context.Background())
	})
}
