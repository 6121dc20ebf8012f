package serve

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/ui"
)

// Sessions on one cluster share one connection and one watcher, which
// stops once the last has left; each session's UI is its own.
func TestIntegrationSessionsShareOneWatcher(t *testing.T) {
	t.Parallel()
	r := startRig(t, nil)
	zc := r.zks.Connect(t)
	takeLock(t, zc, "/it/orders")
	a, b, c := r.open("alice", "alice"), r.open("bob", "bob"), r.open("carol", "alice")
	for _, cl := range []*client{a, b, c} {
		cl.waitText("/it/orders")
	}
	if n := r.dials.dialled(); n != 1 {
		t.Fatalf("three sessions dialled ZooKeeper %d times, want once", n)
	}
	if got := r.srv.Clusters().Running(); len(got) != 1 {
		t.Fatalf("watchers running: %v", got)
	}
	// A lock taken now shows in every session.
	takeLock(t, zc, "/it/billing")
	for _, cl := range []*client{a, b, c} {
		cl.waitText("/it/billing")
	}
	b.waitText("READ-ONLY")
	// q quits: each session ends by itself, and the watcher stops a
	// while after the last.
	for _, cl := range []*client{a, b} {
		if _, err := cl.in.Write([]byte("q")); err != nil {
			t.Fatal(err)
		}
		if code := cl.wait(); code != 0 {
			t.Fatalf("a session quit with status %d", code)
		}
	}
	if got := r.srv.Clusters().Running(); len(got) != 1 {
		t.Fatalf("the watcher stopped with a session still on it: %v", got)
	}
	c.conn.Close()
	// The watcher is taken off the running list before its stop is
	// logged: wait for both.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		switch {
		case len(r.srv.Clusters().Running()) != 0 || r.srv.Sessions() != 0:
			return "the watcher still runs after its last session left"
		case !strings.Contains(r.log.String(), "stopped watching the cluster: no session for 200ms"):
			return "the log does not say the watcher stopped:\n" + r.log.String()
		}
		return ""
	})
	// Coming back starts it again.
	d := r.open("dave", "bob")
	d.waitText("/it/billing")
	if n := r.dials.dialled(); n != 2 {
		t.Fatalf("dialled %d times, want twice", n)
	}
}

// panicky is a UI whose Update panics at "!".
type panicky struct{ tea.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "!" {
		panic("boom")
	}
	m, cmd := p.Model.Update(msg)
	return panicky{m}, cmd
}

// A panic in one session ends that session only; a client that drops
// mid-frame, commands, sessions without a terminal and too many sessions
// leave the server serving the others.
func TestIntegrationSessionFaults(t *testing.T) {
	t.Parallel()
	r := startRig(t, func(c *Config) {
		c.MaxSessions = 3
		c.newModel = func(o ui.Options) tea.Model {
			if o.Actions.User == "crash" {
				return panicky{ui.New(o)}
			}
			return ui.New(o)
		}
	})
	zc := r.zks.Connect(t)
	takeLock(t, zc, "/it/orders")
	good := r.open("alice", "alice")
	crash := r.open("crash", "alice")
	good.waitText("/it/orders")
	crash.waitText("/it/orders")
	if _, err := crash.in.Write([]byte("!")); err != nil {
		t.Fatal(err)
	}
	if code := crash.wait(); code != 2 {
		t.Fatalf("the panicking session ended with status %d, want 2:\n%s", code, ansi.Strip(crash.out.String()))
	}
	crash.waitText("an internal error ended this session")

	// No forwarding, no subsystem.
	if _, err := good.conn.Dial("tcp", r.zks.Addr()); err == nil {
		t.Fatal("a session forwarded a port to ZooKeeper")
	}
	if _, err := good.conn.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Fatal("a session listened on the server")
	}
	if sub, err := good.conn.NewSession(); err != nil {
		t.Fatal(err)
	} else if err := sub.RequestSubsystem("sftp"); err == nil {
		t.Fatal("the sftp subsystem was granted")
	}

	// A client that drops while its screen is being drawn.
	drop := r.open("drop", "bob")
	drop.waitText("/it")
	takeLock(t, zc, "/it/during-drop")
	drop.conn.Close()

	// Refused: a command, no terminal, and one session too many.
	if c, err := r.connect("alice", "alice", false, "cat /etc/passwd"); err != nil {
		t.Fatal(err)
	} else if code := c.wait(); code != 1 || !strings.Contains(c.out.String(), "no commands") {
		t.Fatalf("a command: status %d, %q", code, c.out.String())
	}
	if c, err := r.connect("alice", "alice", false, ""); err != nil {
		t.Fatal(err)
	} else if code := c.wait(); code != 1 || !strings.Contains(c.out.String(), "needs a terminal") {
		t.Fatalf("no terminal: status %d, %q", code, c.out.String())
	}
	if _, err := r.connect("eve", "eve", true, ""); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("an unknown key: %v", err)
	}
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if r.srv.Sessions() == 1 {
			return ""
		}
		return "sessions still counted after they ended"
	})
	second, third := r.open("bob", "bob"), r.open("bob2", "bob")
	second.waitText("/it/orders")
	third.waitText("/it/orders")
	over, err := r.connect("bob3", "bob", true, "")
	if err != nil {
		t.Fatal(err)
	}
	if code := over.wait(); code != 1 || !strings.Contains(over.out.String(), "3 sessions are open, the most this server allows") {
		t.Fatalf("one session too many: status %d, %q", code, over.out.String())
	}

	// The first session is still served.
	takeLock(t, zc, "/it/after-faults")
	good.waitText("/it/after-faults")
	for _, want := range []string{`session of user "crash"`, "panic", `session of user "drop"`} {
		if !strings.Contains(r.log.String(), want) {
			t.Fatalf("the log does not say %q:\n%s", want, r.log)
		}
	}
}

// A key removed from the file ends its sessions and admits it no more;
// an idle session is ended.
func TestIntegrationKeysAndIdle(t *testing.T) {
	t.Parallel()
	r := startRig(t, func(c *Config) { c.IdleTimeout = 3 * time.Second })
	zc := r.zks.Connect(t)
	takeLock(t, zc, "/it/orders")
	bob, alice := r.open("bob", "bob"), r.open("alice", "alice")
	bob.waitText("/it/orders")
	alice.waitText("/it/orders")
	// alice types now and then; bob does not.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
				_, _ = alice.in.Write([]byte("j"))
			}
		}
	}()
	if code := bob.wait(); code != 1 {
		t.Fatalf("bob's idle session ended with status %d", code)
	}
	bob.waitText("session ended: idle for 3s")
	select {
	case err := <-alice.ended:
		t.Fatalf("alice's session, in use, ended: %v", err)
	default:
	}

	// alice's key is removed: her session ends, and she is let in no more.
	b, err := os.ReadFile(r.keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasSuffix(l, " alice") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(r.keyFile+".new", []byte(strings.Join(kept, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(r.keyFile+".new", r.keyFile); err != nil {
		t.Fatal(err)
	}
	if code := alice.wait(); code != 1 {
		t.Fatalf("alice's session ended with status %d", code)
	}
	alice.waitText("your key was removed from the authorized keys")
	if _, err := r.connect("alice", "alice", true, ""); err == nil {
		t.Fatal("a removed key was let in")
	}
}

// sgr matches a Select Graphic Rendition sequence with a parameter:
// colour, bold, reverse.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*[1-9][0-9;]*m")

// Each session's colours are its own terminal's: a dumb terminal gets
// none while a colour one beside it gets colours.
func TestIntegrationSessionColours(t *testing.T) {
	t.Parallel()
	r := startRig(t, nil)
	takeLock(t, r.zks.Connect(t), "/it/orders")
	colour := r.open("alice", "alice")
	dumb, err := r.connectTerm("bob", "bob", true, "", "dumb")
	if err != nil {
		t.Fatal(err)
	}
	colour.waitText("/it/orders")
	dumb.waitText("/it/orders")
	if !sgr.MatchString(colour.out.String()) {
		t.Fatal("an xterm-256color session was drawn without colours")
	}
	if m := sgr.FindString(dumb.out.String()); m != "" {
		t.Fatalf("a dumb terminal's session was drawn with %q", m)
	}
}

// A client that goes silent without closing its connection (a laptop
// shut, a network cut) is found out by the keepalives and its session
// ended, while the others go on.
func TestIntegrationSilentClient(t *testing.T) {
	t.Parallel()
	r := startRig(t, func(c *Config) { c.keepaliveEvery, c.keepaliveWait = 200*time.Millisecond, time.Second })
	zc := r.zks.Connect(t)
	takeLock(t, zc, "/it/orders")
	proxy := zktest.NewProxy(t, r.addr)
	silent, err := r.connectVia(proxy.Addr(), "silent", "alice", true, "", "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	other := r.open("bob", "bob")
	silent.waitText("/it/orders")
	other.waitText("/it/orders")
	proxy.Delay(time.Hour)
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if strings.Contains(r.log.String(), "the client did not answer for 1s") && r.srv.Sessions() == 1 {
			return ""
		}
		return "the silent client's session was not ended:\n" + r.log.String()
	})
	// bob, whose client answers, was asked all along and is still served.
	takeLock(t, zc, "/it/after")
	other.waitText("/it/after")
	if r.srv.Sessions() != 1 {
		t.Fatal("a client that answers its keepalives was let go")
	}
}

// :ctx switches a session to another context, whose watcher starts for
// it; the keys typed and the window's size go on to the new screen.
func TestIntegrationSwitchContext(t *testing.T) {
	t.Parallel()
	r := startRig(t, func(c *Config) {
		c.Contexts, c.Default, c.NoSwitch = []string{"east", "west"}, "east", ""
		// Each context's locks are under /it/NAME.
		dial := c.Dial
		c.Dial = func(ctx context.Context, name string) (hub.Cluster, error) {
			cl, err := dial(ctx, name)
			cl.Watch.Roots = []string{"/it/" + name}
			return cl, err
		}
	})
	zc := r.zks.Connect(t)
	takeLock(t, zc, "/it/east/orders")
	takeLock(t, zc, "/it/west/jobs")
	a := r.open("alice", "alice")
	a.waitText("/it/east/orders")
	if _, err := a.in.Write([]byte(":ctx west\r")); err != nil {
		t.Fatal(err)
	}
	a.waitText("/it/west/jobs")
	if n := r.dials.dialled(); n != 2 {
		t.Fatalf("dialled %d times, want once for each context", n)
	}
	if !strings.Contains(r.log.String(), `switched from context "east" to "west"`) {
		t.Fatalf("the log does not say the switch:\n%s", r.log)
	}
	// The next key reaches the new screen: q ends the session.
	if _, err := a.in.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if code := a.wait(); code != 0 {
		t.Fatalf("the session quit with status %d", code)
	}
}
