package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationServe drives zklocks serve with OpenSSH's client, under
// tmux: two people on one lock with their own cursors, a view key refused
// a force-release before any request, an operate key's force-release
// audited with its user and key and followed on the Sessions screen,
// unknown keys, commands and sessions without a terminal refused, and a
// client killed mid-session leaving the others served.
func TestIntegrationServe(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	holder := curator.Acquire(t, "c-holder", "mutex", "/serve/orders")
	curator.WaitHeld(t, "c-holder", 30*time.Second)
	waiter := curator.Acquire(t, "c-waiter", "mutex", "/serve/orders")

	keys := t.TempDir()
	alicePub, aliceFP := serverig.SSHKey(t, keys, "alice")
	bobPub, _ := serverig.SSHKey(t, keys, "bob")
	serverig.SSHKey(t, keys, "eve")
	r := serverig.Start(t, zks, "/serve", []string{`zklocks-role="operate" ` + alicePub, bobPub})
	for _, k := range []string{"alice", "bob", "eve"} {
		for _, ext := range []string{"", ".pub"} {
			b, _ := os.ReadFile(filepath.Join(keys, k+ext))
			if err := os.WriteFile(r.Path(k+ext), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fi, err := os.Stat(r.Path("host_key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the host key was not made 0600: %v %v", fi, err)
	}

	// Two people at once on one lock, each with their own cursor.
	alice := r.Open("alice", "alice", 120, 30)
	bob := r.Open("bob", "bob", 100, 24)
	short := func(n string) string { return n[len(n)-10:] }
	for _, s := range []*tmuxscreen.Screen{alice, bob} {
		openOrders(s)
		s.WaitText("/serve/orders", "1 holding", "1 waiting", short(holder.Node), short(waiter.Node))
	}
	alice.Keys("G")
	alice.WaitFor("alice's cursor on the waiter", func(sc string) bool { return strings.Contains(selectedLine(sc), short(waiter.Node)) })
	bob.Keys("g")
	bob.WaitFor("bob's cursor on the holder", func(sc string) bool { return strings.Contains(selectedLine(sc), short(holder.Node)) })
	if sc := alice.Capture(); !strings.Contains(selectedLine(sc), short(waiter.Node)) {
		t.Fatalf("bob's key moved alice's cursor:\n%s", sc)
	}
	if !strings.Contains(alice.Capture(), "operate") && strings.Contains(alice.Capture(), "READ-ONLY") {
		t.Fatalf("alice's operate key shows read-only:\n%s", alice.Last())
	}
	bob.WaitText("READ-ONLY")

	// A view key is refused a force-release, before any request.
	zk := zks.Connect(t)
	_, before, err := zk.Get(holder.Node)
	if err != nil {
		t.Fatal(err)
	}
	bob.Keys("D")
	bob.WaitText("read-only: force-release is disabled (your SSH key's role is view)")
	bob.Keys("y")
	_, after, err := zk.Get(holder.Node)
	if err != nil {
		t.Fatalf("bob's view key deleted the holder: %v", err)
	}
	if after.Version != before.Version || after.Mzxid != before.Mzxid {
		t.Fatalf("the holder changed after bob's refused force-release: %+v → %+v", before, after)
	}
	if lines := r.Audit(); len(lines) != 0 {
		t.Fatalf("a refused force-release was audited: %v", lines)
	}

	// alice's operate key force-releases the holder, audited as alice's.
	alice.Keys("g", "D")
	alice.WaitText("Force-release: delete")
	alice.Keys("y")
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if len(r.Audit()) > 0 {
			return ""
		}
		return "no audit line for alice's force-release; the screen:\n" + alice.Capture()
	})
	line := r.Audit()[0]
	if line["action"] != "force-release" || line["user"] != "alice" || line["key"] != aliceFP ||
		line["node"] != holder.Node || line["result"] != "ok" || line["via"] != "ssh" || line["host"] != "127.0.0.1" {
		t.Fatalf("audit line: %v (want alice's force-release of %s with key %s)", line, holder.Node, aliceFP)
	}
	if ok, _, _ := zk.Exists(holder.Node); ok {
		t.Fatal("the holder's node is still there after alice's force-release")
	}
	// The action came back through the shared watcher's events: the
	// Sessions screen follows the holder, whose client was not told.
	alice.Keys("2")
	alice.WaitText("forced", "not told: may believe it holds")
	r.WaitLog(`user "alice", key ` + aliceFP)
	if !strings.Contains(r.Log(), "role operate") || !strings.Contains(r.Log(), "role view") {
		t.Fatalf("the log does not say each session's role:\n%s", r.Log())
	}

	// An unknown key, a command and a session without a terminal are refused.
	if code, out := r.Run("eve", "eve"); code != 255 || !strings.Contains(out, "Permission denied (publickey)") {
		t.Fatalf("eve's unknown key: exit %d, %q", code, out)
	}
	r.WaitLog("is not in the authorized keys")
	if code, out := r.Run("alice", "alice", "-T", "cat", "/etc/passwd"); code != 1 || !strings.Contains(out, "no commands") {
		t.Fatalf("a command: exit %d, %q", code, out)
	}
	if code, out := r.Run("alice", "alice", "-T"); code != 1 || !strings.Contains(out, "needs a terminal") {
		t.Fatalf("no terminal: exit %d, %q", code, out)
	}

	// SIGHUP reads the keys file again, changed or not.
	if err := r.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	r.WaitLog("authorized keys read again: 2 admitted")

	// A client killed mid-session leaves the others served.
	carol := r.Open("carol", "alice", 80, 24)
	pid, err := strconv.Atoi(strings.TrimSpace(carol.Tmux("display-message", "-p", "-t", "zklocks", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r.WaitLog(`session of user "carol"`)
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if strings.Contains(r.Log(), `user "carol"`) && strings.Contains(r.Log(), "the client went away") {
			return ""
		}
		return "the server never saw carol's client go:\n" + r.Log()
	})
	curator.Acquire(t, "c-jobs", "mutex", "/serve/jobs")
	bob.Keys("Escape")
	bob.WaitText("PATH", "match /orders")
	bob.Keys("Escape")
	bob.WaitText("/serve/jobs")
	again := r.Open("carol", "alice", 80, 24)
	again.WaitText("/serve/jobs")
	if err := r.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the server died: %v\n%s", err, r.Log())
	}
}

// TestIntegrationServeWatches: 20 people looking at one cluster through
// zklocks serve cost its server the watches and connections of one: the
// shared watcher's session and its persistent watch's. The connections
// are those with a session: zklocks' four-letter words open short ones of
// their own, which mntr would count while they are open.
func TestIntegrationServeWatches(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	for _, p := range []string{"/watches/orders", "/watches/billing", "/watches/jobs"} {
		id := strings.TrimPrefix(p, "/watches/")
		curator.Acquire(t, id+"-holder", "mutex", p)
		curator.WaitHeld(t, id+"-holder", 30*time.Second)
		curator.Acquire(t, id+"-waiter", "mutex", p)
	}
	keys := t.TempDir()
	pub, _ := serverig.SSHKey(t, keys, "viewer")
	r := serverig.Start(t, zks, "/watches", []string{pub}, "--max-sessions", "25")
	for _, ext := range []string{"", ".pub"} {
		b, _ := os.ReadFile(filepath.Join(keys, "viewer"+ext))
		if err := os.WriteFile(r.Path("viewer"+ext), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	watchesBefore := zktest.WatchCount(t, zks.Addr())
	connsBefore := zktest.SessionConnections(t, zks.Addr())

	first := r.Open("viewer1", "viewer", 100, 24)
	first.WaitText("/watches/orders", "/watches/billing", "/watches/jobs", "updated")
	// The persistent watch's session may come just after the first sync.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if n := zktest.SessionConnections(t, zks.Addr()); n != connsBefore+2 {
			return fmt.Sprintf("%d connections with a session, want %d: the watcher's and its persistent watch's", n, connsBefore+2)
		}
		return ""
	})
	one := zktest.WatchCount(t, zks.Addr())
	oneConns := zktest.SessionConnections(t, zks.Addr())
	if one <= watchesBefore || oneConns != connsBefore+2 {
		t.Fatalf("one session: %d watches (%d before), %d connections (%d before)", one, watchesBefore, oneConns, connsBefore)
	}
	screens := []*tmuxscreen.Screen{first}
	for i := 2; i <= 20; i++ {
		screens = append(screens, r.Open(fmt.Sprintf("viewer%d", i), "viewer", 100, 24))
	}
	for _, s := range screens {
		s.WaitText("/watches/orders", "/watches/billing", "/watches/jobs", "updated")
	}
	if n := strings.Count(r.Log(), "opened, terminal"); n != 20 {
		t.Fatalf("%d sessions opened, want 20:\n%s", n, r.Log())
	}
	twenty := zktest.WatchCount(t, zks.Addr())
	twentyConns := zktest.SessionConnections(t, zks.Addr())
	t.Logf("watches: %d before zklocks, %d with one session, %d with 20; connections %d, %d, %d",
		watchesBefore, one, twenty, connsBefore, oneConns, twentyConns)
	if twenty != one || twentyConns != oneConns {
		t.Fatalf("20 sessions hold %d watches and %d connections, one held %d and %d", twenty, twentyConns, one, oneConns)
	}
}

// selectedLine is the screen's line with the ">" marker.
func selectedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, ">") {
			return l
		}
	}
	return ""
}

// openOrders opens /serve/orders once the locks screen lists it: a session
// is connected before its first walk has listed any lock, and an Enter
// pressed on the empty list opens nothing.
func openOrders(s *tmuxscreen.Screen) {
	s.WaitText("/serve/orders", "curator-mutex")
	s.Keys("/", "orders", "Enter", "Enter")
}
