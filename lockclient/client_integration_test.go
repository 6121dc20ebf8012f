package lockclient_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

const wait = 30 * time.Second

// shared is the package's ZooKeeper for the tests that never stop,
// restart or proxy theirs; each works under a root of its own.
var shared zktest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Stop()
	os.Exit(code)
}

// ours is one acquisition by our client, running in the background.
type ours struct {
	node chan string
	done chan struct{}
	held *lockclient.Held
	err  error
}

// start begins an acquisition and returns once our node exists.
func start(t *testing.T, c *zk.Conn, spec lockclient.Spec) *ours {
	t.Helper()
	o := &ours{node: make(chan string, 1), done: make(chan struct{})}
	var once sync.Once
	spec.Progress = func(p lockclient.Progress) { once.Do(func() { o.node <- p.Node }) }
	go func() {
		defer close(o.done)
		o.held, o.err = lockclient.Acquire(context.Background(), c, spec)
		once.Do(func() {
			if o.held != nil {
				o.node <- o.held.Node
			} else {
				o.node <- ""
			}
		})
	}()
	select {
	case <-o.node:
	case <-time.After(wait):
		t.Fatal("our contender never appeared")
	}
	return o
}

func (o *ours) holds(t *testing.T) *lockclient.Held {
	t.Helper()
	select {
	case <-o.done:
	case <-time.After(wait):
		t.Fatal("our contender never got the lock")
	}
	if o.err != nil {
		t.Fatalf("acquire: %v", o.err)
	}
	return o.held
}

func (o *ours) waiting() bool {
	select {
	case <-o.done:
		return false
	case <-time.After(300 * time.Millisecond):
		return true
	}
}

func TestIntegrationFIFOWithRealClients(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	for _, tc := range []struct {
		kind            peers.Kind
		variant, recipe string
	}{
		{peers.Curator, "mutex", "curator-mutex"},
		{peers.Kazoo, "lock", "kazoo-lock"},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			path := root + "/fifo/" + string(tc.kind)
			p := peers.Start(t, tc.kind, zks.Addr())
			p.Acquire(t, "c0", tc.variant, path)
			p.WaitHeld(t, "c0", wait)
			a := start(t, zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})
			p.Acquire(t, "c1", tc.variant, path)
			b := start(t, zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})

			p.Release(t, "c0")
			ha := a.holds(t)
			if string(ha.Recipe) != tc.recipe || p.Held("c1") || !b.waiting() {
				t.Fatalf("after c0: ours A should hold alone (recipe %s)", ha.Recipe)
			}
			if err := ha.Release(context.Background()); err != nil {
				t.Fatal(err)
			}
			p.WaitHeld(t, "c1", wait)
			if !b.waiting() {
				t.Fatal("our B jumped ahead of c1")
			}
			p.Release(t, "c1")
			hb := b.holds(t)
			if hb.Token <= ha.Token {
				t.Fatalf("fencing tokens must grow: A %d, B %d", ha.Token, hb.Token)
			}
			hb.Release(context.Background())
		})
	}
}

func TestIntegrationReadWriteWithCurator(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	path := root + "/rw"
	p := peers.Start(t, peers.Curator, zks.Addr())
	p.Acquire(t, "r0", "read", path)
	p.WaitHeld(t, "r0", wait)
	w := start(t, zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeWrite})
	p.Acquire(t, "r2", "read", path)
	r := start(t, zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeRead})
	if p.Held("r2") || !r.waiting() {
		t.Fatal("readers must queue behind our waiting writer")
	}
	p.Release(t, "r0")
	hw := w.holds(t)
	if hw.Recipe != lockcore.RecipeCuratorRWLock || hw.Mode != lockcore.ModeWrite || p.Held("r2") {
		t.Fatalf("our writer should hold alone: %s %s", hw.Recipe, hw.Mode)
	}
	hw.Release(context.Background())
	p.WaitHeld(t, "r2", wait)
	hr := r.holds(t)
	if !strings.Contains(hr.Node, "__READ__") {
		t.Fatalf("our reader's node %s", hr.Node)
	}
	hr.Release(context.Background())
}

func TestIntegrationForceReleaseWakesTheNextWaiterOnly(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	path := root + "/force"
	p := peers.Start(t, peers.Curator, zks.Addr())
	c0 := p.Acquire(t, "c0", "mutex", path)
	p.WaitHeld(t, "c0", wait)
	p.Acquire(t, "c1", "mutex", path)
	p.Acquire(t, "c2", "mutex", path)
	op := zks.Connect(t)
	_, stat, err := op.Get(c0.Node)
	if err != nil {
		t.Fatal(err)
	}
	e := lockclient.Expect{Path: c0.Node, Czxid: stat.Czxid, EphemeralOwner: stat.EphemeralOwner, Version: stat.Version}
	if err := lockclient.ForceDelete(t.Context(), op, e); err != nil {
		t.Fatal(err)
	}
	p.WaitHeld(t, "c1", wait)
	time.Sleep(300 * time.Millisecond)
	if p.Held("c2") {
		t.Fatal("c2 woke up and took the lock: force-release let in more than the next waiter")
	}
	if !p.Held("c0") {
		t.Fatal("c0's client is not told; it still believes it holds")
	}
	if err := lockclient.ForceDelete(t.Context(), op, e); !errors.Is(err, lockclient.ErrNodeGone) {
		t.Fatalf("deleting a vanished node: %v", err)
	}
}

func TestIntegrationVersionChangeAbortsTheDelete(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	held, err := lockclient.Acquire(context.Background(), c, lockclient.Spec{Path: root + "/v", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	op := zks.Connect(t)
	_, stat, _ := op.Get(held.Node)
	shown := lockclient.Expect{Path: held.Node, Czxid: stat.Czxid, EphemeralOwner: stat.EphemeralOwner, Version: stat.Version}
	if _, err := op.Set(held.Node, []byte("changed"), -1); err != nil {
		t.Fatal(err)
	}
	for name, act := range map[string]func() error{
		"delete": func() error { return lockclient.ForceDelete(t.Context(), op, shown) },
		"revoke": func() error { return lockclient.Revoke(t.Context(), op, shown) },
		"fence":  func() error { return lockclient.Fence(t.Context(), op, []lockclient.Expect{shown}) },
	} {
		if err := act(); !errors.Is(err, lockclient.ErrNodeChanged) {
			t.Fatalf("%s after a change: %v", name, err)
		}
	}
	if ok, _, _ := op.Exists(held.Node); !ok {
		t.Fatal("the node was deleted despite the change")
	}
	select {
	case <-held.Lost():
		t.Fatalf("lost without cause: %v", held.Err())
	default:
	}
}

func TestIntegrationFenceFreesASelfWaitingSession(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	if _, err := c.Create(root+"/orphan", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	// A create whose reply was lost: the node exists, the client never knew.
	if _, err := c.Create(root+"/orphan/_c_0b9f7c2e-1111-4222-8333-944455556666-lock-", []byte("10.0.0.9"),
		zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	o := start(t, c, lockclient.Spec{Path: root + "/orphan", Mode: lockcore.ModeExclusive})
	if !o.waiting() {
		t.Fatal("the session should wait behind its own orphan")
	}
	l := analyse(t, zks.Connect(t), root+"/orphan")
	cands := lockcore.FenceCandidates(l)
	var chosen []lockclient.Expect
	for _, fc := range cands {
		if fc.Selected {
			chosen = append(chosen, lockclient.ExpectParticipant(fc.Participant))
		}
	}
	if len(chosen) != 1 || !strings.Contains(chosen[0].Path, "0b9f7c2e") {
		t.Fatalf("fence candidates: %+v", cands)
	}
	if err := lockclient.Fence(t.Context(), zks.Connect(t), chosen); err != nil {
		t.Fatal(err)
	}
	o.holds(t).Release(context.Background())
}

// analyse reads a lock with its Stats, as the operator would see it.
func analyse(t *testing.T, c *zk.Conn, path string) lockcore.Lock {
	t.Helper()
	names, _, err := c.Children(path)
	if err != nil {
		t.Fatal(err)
	}
	tree := lockcore.Tree{Path: path, ReadAt: time.Now()}
	for _, n := range names {
		data, stat, err := c.Get(path + "/" + n)
		if err != nil {
			t.Fatal(err)
		}
		tree.Children = append(tree.Children, lockcore.Node{Name: n, Stat: *stat, Data: data})
	}
	return lockcore.Analyze(tree, nil, lockcore.Options{})
}

func TestIntegrationLockLost(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	t.Run("deleted by another session", func(t *testing.T) {
		held, err := lockclient.Acquire(context.Background(), zks.Connect(t), lockclient.Spec{Path: root + "/lost1", Mode: lockcore.ModeExclusive})
		if err != nil {
			t.Fatal(err)
		}
		if err := zks.Connect(t).Delete(held.Node, -1); err != nil {
			t.Fatal(err)
		}
		select {
		case <-held.Lost():
		case <-time.After(wait):
			t.Fatal("the loss was not noticed")
		}
		if !errors.Is(held.Err(), lockclient.ErrLockLost) || !strings.Contains(held.Err().Error(), "token") {
			t.Fatalf("loss: %v", held.Err())
		}
		if err := held.Release(context.Background()); !errors.Is(err, lockclient.ErrLockLost) {
			t.Fatalf("releasing a lost lock: %v", err)
		}
	})
}

// TestIntegrationForceReleaseAtTheGrant deletes a waiter's node in the
// transaction that grants it the lock (its predecessor's delete, in one
// multi), and just after that delete: a holder is never without the watch
// on its own node, so the waiter is told either way, by its acquisition
// failing or by its lock lost at once.
func TestIntegrationForceReleaseAtTheGrant(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	op := zks.Connect(t)
	for i := range 10 {
		together := i%2 == 0
		path := fmt.Sprintf("%s/grant%d", root, i)
		spec := lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive, Recipe: lockcore.RecipeCuratorMutex}
		first, err := lockclient.Acquire(context.Background(), zks.Connect(t), spec)
		if err != nil {
			t.Fatal(err)
		}
		next := start(t, zks.Connect(t), spec)
		if !next.waiting() {
			t.Fatalf("%s: the second contender did not wait", path)
		}
		names, _, err := op.Children(path)
		if err != nil || len(names) != 2 || !slices.Contains(names, strings.TrimPrefix(first.Node, path+"/")) {
			t.Fatalf("%s: %v, %v", path, names, err)
		}
		// The waiter's is the other node.
		waiter := path + "/" + names[0]
		if waiter == first.Node {
			waiter = path + "/" + names[1]
		}
		if together {
			_, err = op.Multi(&zk.DeleteRequest{Path: first.Node, Version: -1}, &zk.DeleteRequest{Path: waiter, Version: -1})
		} else if err = op.Delete(first.Node, -1); err == nil {
			err = op.Delete(waiter, -1)
		}
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-next.done:
		case <-time.After(wait):
			t.Fatalf("%s: the acquisition whose node went as it was granted never ended", path)
		}
		if next.err != nil {
			if !errors.Is(next.err, lockclient.ErrLockLost) {
				t.Fatalf("%s: acquire: %v", path, next.err)
			}
			continue
		}
		select {
		case <-next.held.Lost():
		case <-time.After(wait):
			t.Fatalf("%s: granted %s, deleted by another session (together with the grant: %v), and never told", path, next.held.Node, together)
		}
	}
}

type discard struct{}

func (discard) Printf(string, ...interface{}) {}

func TestIntegrationAcquireTimeoutRemovesOurNode(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	first, err := lockclient.Acquire(context.Background(), zks.Connect(t), lockclient.Spec{Path: root + "/t", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := lockclient.Acquire(ctx, zks.Connect(t), lockclient.Spec{Path: root + "/t", Mode: lockcore.ModeExclusive}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timed out acquire: %v", err)
	}
	names, _, _ := zks.Connect(t).Children(root + "/t")
	if len(names) != 1 || !strings.HasSuffix(first.Node, names[0]) {
		t.Fatalf("only the holder's node may remain: %v", names)
	}
	if err := first.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := first.Release(context.Background()); err != nil {
		t.Fatalf("a second release is a no-op: %v", err)
	}
}

func TestIntegrationSemaphoreLeasesWithRealClients(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	for _, kind := range []peers.Kind{peers.Curator, peers.Kazoo} {
		t.Run(string(kind), func(t *testing.T) {
			path := root + "/sem/" + string(kind)
			p := peers.Start(t, kind, zks.Addr())
			p.Acquire(t, "c0", "semaphore:2", path)
			p.Acquire(t, "c1", "semaphore:2", path)
			p.WaitHeld(t, "c0", wait)
			p.WaitHeld(t, "c1", wait)
			o := start(t, zks.Connect(t), lockclient.Spec{Path: path, Mode: lockcore.ModeLease, MaxLeases: 2})
			if !o.waiting() {
				leases, _, _ := zks.Connect(t).Children(path)
				var node string
				if o.held != nil {
					node = o.held.Node
				}
				t.Fatalf("no lease is free, yet our acquire ended (held %q, err %v); c0 held %v, c1 held %v; lease nodes now %v",
					node, o.err, p.Held("c0"), p.Held("c1"), leases)
			}
			p.Release(t, "c0")
			h := o.holds(t)
			if h.Mode != lockcore.ModeLease {
				t.Fatalf("mode %s", h.Mode)
			}
			p.Acquire(t, "c2", "semaphore:2", path)
			time.Sleep(300 * time.Millisecond)
			if p.Held("c2") {
				t.Fatal("the real client took a third lease: it does not count ours")
			}
			h.Release(context.Background())
			p.WaitHeld(t, "c2", wait)
		})
	}
}

// DeletedOwn says a release deleted our node itself only when the
// server's reply to our delete said so: a node another client deleted
// first was not deleted by us.
func TestIntegrationDeletedOwnOnlyForOurOwnDelete(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	held, err := lockclient.Acquire(t.Context(), c, lockclient.Spec{Path: root + "/own", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	if held.DeletedOwn() {
		t.Fatal("DeletedOwn before the release")
	}
	if err := held.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !held.DeletedOwn() {
		t.Fatal("our own release's delete is not told as ours")
	}
	forced, err := lockclient.Acquire(t.Context(), c, lockclient.Spec{Path: root + "/own", Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	e := lockclient.Expect{Path: forced.Node, Czxid: forced.Token, EphemeralOwner: forced.Session}
	if err := lockclient.ForceDelete(t.Context(), zks.Connect(t), e); err != nil {
		t.Fatal(err)
	}
	forced.Release(t.Context())
	if forced.DeletedOwn() {
		t.Fatal("a node another client deleted is told as deleted by us")
	}
}
