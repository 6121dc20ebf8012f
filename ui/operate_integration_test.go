package ui

import (
	"context"
	"path"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// loop runs an App as Bubble Tea does: commands in goroutines, their
// messages back through Update on the test's goroutine.
type loop struct {
	t    *testing.T
	a    *App
	msgs chan tea.Msg
}

func newLoop(t *testing.T, a *App) *loop { return &loop{t: t, a: a, msgs: make(chan tea.Msg, 256)} }

func (l *loop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				l.run(c)
			}
		default:
			l.msgs <- msg
		}
	}()
}

func (l *loop) send(msg tea.Msg) {
	_, cmd := l.a.Update(msg)
	l.run(cmd)
}

func (l *loop) keys(keys ...string) {
	for _, k := range keys {
		l.send(keyMsg(k))
	}
}

// until delivers messages until cond holds, for at most 30 s.
func (l *loop) until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case msg := <-l.msgs:
			l.send(msg)
		case <-deadline:
			l.t.Fatalf("never saw %s; status %q; the screen:\n%s", what, l.a.flash.text, screen(l.a))
		}
	}
}

// readLock reads and analyses the lock at p, as the watcher would.
func readLock(t *testing.T, c *zk.Conn, p string) *lockcore.Lock {
	t.Helper()
	tree := lockcore.Tree{Path: p, Self: lockcore.Node{Name: path.Base(p)}, ReadAt: time.Now()}
	names, _, err := c.Children(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, st, err := c.Get(p + "/" + n)
		if err != nil {
			t.Fatal(err)
		}
		tree.Children = append(tree.Children, lockcore.Node{Name: n, Stat: *st, Data: data})
	}
	l := lockcore.Analyze(tree, nil, lockcore.Options{})
	return &l
}

func exists(t *testing.T, c *zk.Conn, p string) bool {
	t.Helper()
	ok, _, err := c.Exists(p)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestIntegrationOperate drives the App's operations against a real
// ZooKeeper: acquire behind another client, force-release that client's
// node as shown, lose our own lock, refuse a node changed since shown, and
// give our lock back on the way out.
func TestIntegrationOperate(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	c, other := zks.Connect(t), zks.Connect(t)
	ctx := context.Background()
	const lockPath = "/ui-it/orders"
	theirs, err := lockclient.Acquire(ctx, other, lockclient.Spec{Path: lockPath, Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	var audit zktest.SyncBuffer
	a := New(Options{Profile: termenv.Ascii, Location: time.UTC,
		Actions: &model.Actions{ZK: c, Audit: model.NewAudit(&audit), User: "sre", Server: zks.Addr()}})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	l := newLoop(t, a)
	picture := func() { l.send(lockEvents(readLock(t, c, lockPath))) }
	picture()
	l.send(openLockMsg{path: lockPath})

	// a, e: our node queues behind theirs.
	l.keys("a", "e")
	l.until("our node waiting", func() bool { return a.env.own != nil && a.env.own.progress != nil })
	picture()
	if sc := screen(a); !lineHas(sc, "★ ours", "waiting #1 · watches #0") || !lineHas(sc, " *  1 waiter") {
		t.Fatalf("waiting:\n%s", sc)
	}

	// Force-release theirs, as shown: we are let in, they lose it.
	l.keys("g", "D", "y")
	l.until("our lock held", func() bool { return a.env.own != nil && a.env.own.held != nil })
	select {
	case <-theirs.Lost():
	case <-time.After(10 * time.Second):
		t.Fatal("their lock was force-released, yet they did not lose it")
	}
	l.until("the force-release audited", func() bool { return strings.Contains(audit.String(), `"action":"force-release"`) })
	if !strings.Contains(audit.String(), `"result":"ok"`) {
		t.Fatalf("audit: %s", audit.String())
	}
	picture()
	ours := a.env.own.held
	if sc := screen(a); !lineHas(sc, "★ ours", "held · fencing token "+hex(ours.Token)) {
		t.Fatalf("held:\n%s", sc)
	}

	// Someone deletes our node: the lock is lost, and said so.
	if err := other.Delete(ours.Node, -1); err != nil {
		t.Fatal(err)
	}
	l.until("our lock lost", func() bool { return a.env.own.lost != nil })
	if sc := screen(a); !lineHas(sc, "✗ OURS", "LOST") || !strings.Contains(a.flash.text, "was deleted by another session") {
		t.Fatalf("lost: %q\n%s", a.flash.text, sc)
	}
	l.keys("r")
	l.until("our lock cleared", func() bool { return a.env.own == nil })

	// A node that changed since the dialog showed it is left alone.
	again, err := lockclient.Acquire(ctx, other, lockclient.Spec{Path: lockPath, Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	picture()
	l.keys("g", "D")
	if _, err := other.Set(again.Node, []byte("changed"), -1); err != nil {
		t.Fatal(err)
	}
	l.keys("y")
	l.until("the refusal", func() bool { return strings.Contains(a.flash.text, "refused") })
	if !strings.Contains(a.flash.text, "nothing was changed") || !exists(t, c, again.Node) {
		t.Fatalf("a changed node: %q", a.flash.text)
	}
	if err := again.Release(ctx); err != nil {
		t.Fatal(err)
	}

	// Quitting gives our lock back.
	l.keys("a", "e")
	l.until("held again", func() bool { return a.env.own != nil && a.env.own.held != nil })
	node := a.env.own.held.Node
	did, err := a.ReleaseOwn(ctx)
	if err != nil || !strings.HasPrefix(did, "released "+lockPath) || exists(t, c, node) {
		t.Fatalf("ReleaseOwn: %q %v, node still there: %v", did, err, exists(t, c, node))
	}
}
