package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationServeTwoPerson drives the two-person rule through three
// OpenSSH sessions on a context with approve: 2: alice's force-release is
// a request that every session is told of; she cannot approve it herself
// and carol (view) cannot at all; bob's rejection deletes nothing; bob's
// approval deletes the holder once, audited with both names; a request
// nobody approves expires and deletes nothing; and the command line
// refuses the context's force-release.
func TestIntegrationServeTwoPerson(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	holder := curator.Acquire(t, "c-holder", "mutex", "/serve/orders")
	curator.WaitHeld(t, "c-holder", 30*time.Second)
	zk := zks.Connect(t)

	keys := t.TempDir()
	alicePub, aliceFP := serverig.SSHKey(t, keys, "alice")
	bobPub, bobFP := serverig.SSHKey(t, keys, "bob")
	carolPub, _ := serverig.SSHKey(t, keys, "carol")
	lines := []string{`zklocks-role="operate" ` + alicePub, `zklocks-role="operate" ` + bobPub, carolPub}
	contexts := "  prod: {server: \"ZK\", roots: [/serve], approve: 2}\n"
	r := serverig.StartContexts(t, zks, contexts, lines)
	r.UseKeys(keys, "alice", "bob", "carol")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("zklocks serve's log:\n%s", r.Log())
		}
	})

	short := holder.Node[len(holder.Node)-10:]
	open := func(user string) *tmuxscreen.Screen {
		s := r.Open(user, user, 220, 30)
		openOrders(s)
		s.WaitText("/serve/orders", short)
		return s
	}
	alice, bob, carol := open("alice"), open("bob"), open("carol")
	all := []*tmuxscreen.Screen{alice, bob, carol}
	exists := func() bool {
		ok, _, err := zk.Exists(holder.Node)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	request := func() {
		alice.Keys("g", "D")
		alice.WaitText("Force-release: delete")
		alice.Keys("y")
		alice.WaitText("requested: it awaits a second operator's approval")
		for _, s := range []*tmuxscreen.Screen{bob, carol} {
			s.WaitText("alice (" + aliceFP[:10] + "…) asks to force-release " + holder.Node)
		}
	}
	command := func(s *tmuxscreen.Screen, text string) { s.Keys(":", text, "Enter") }

	// The request: told everywhere, not yet acted on.
	request()
	if !exists() || len(r.Audit()) != 0 {
		t.Fatalf("a request acted: node there %v, audit %v", exists(), r.Audit())
	}
	command(alice, "approve")
	alice.WaitText("approve: only your own requests are pending")
	command(carol, "approve")
	carol.WaitText("read-only: approve is disabled (your SSH key's role is view)")

	// Rejected: nothing deleted, nothing audited.
	command(bob, "approve")
	bob.WaitText("Approve alice", "y approves and runs it · n rejects it")
	bob.Keys("n")
	for _, s := range all {
		s.WaitText("bob (" + bobFP[:10] + "…) rejected alice (" + aliceFP[:10] + "…)'s force-release of " + holder.Node)
	}
	if !exists() || len(r.Audit()) != 0 {
		t.Fatalf("a rejected request acted: node there %v, audit %v", exists(), r.Audit())
	}

	// Approved: the node goes once, audited with both.
	request()
	command(bob, "approve")
	bob.WaitText("Approve alice")
	bob.Keys("y")
	// Everyone is told what was done, by whom, approved by whom, the
	// contender's place in the queue as it was shown.
	for _, s := range all {
		s.WaitText("alice ("+aliceFP[:10]+"…) force-released /serve/orders #0 · token 0x", ", approved by bob ("+bobFP[:10]+"…)")
	}
	if exists() {
		t.Fatal("the holder is still there after bob's approval")
	}
	audit := r.Audit()
	if len(audit) != 1 {
		t.Fatalf("audit lines %v, want one", audit)
	}
	line := audit[0]
	approver, _ := line["approved_by"].(map[string]any)
	if line["action"] != "force-release" || line["user"] != "alice" || line["key"] != aliceFP || line["result"] != "ok" ||
		approver["user"] != "bob" || approver["key"] != bobFP {
		t.Fatalf("audit line %v: want alice's force-release approved by bob", line)
	}
	command(bob, "approve")
	bob.WaitText("approve: no request is pending")

	// The command line refuses the context's force-release, before
	// anything is read.
	curator.Acquire(t, "c-next", "mutex", "/serve/orders")
	curator.WaitHeld(t, "c-next", 30*time.Second)
	out, errOut, code := run(t, "release", "--force", "--yes", "--config", r.Path("config.yaml"), "--context", "prod",
		"--audit-log", r.Path("cli-audit.log"), holder.Node)
	if code == 0 || !strings.Contains(errOut, "requires a second person's approval") {
		t.Fatalf("the command line's force-release on an approve: 2 context: exit %d, %s%s", code, out, errOut)
	}
}

// TestIntegrationServeApprovalExpires: a request nobody approves expires,
// every session is told, and nothing is deleted.
func TestIntegrationServeApprovalExpires(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	holder := curator.Acquire(t, "c-holder", "mutex", "/serve/orders")
	curator.WaitHeld(t, "c-holder", 30*time.Second)
	keys := t.TempDir()
	alicePub, _ := serverig.SSHKey(t, keys, "alice")
	bobPub, _ := serverig.SSHKey(t, keys, "bob")
	r := serverig.StartContexts(t, zks, "  prod: {server: \"ZK\", roots: [/serve], approve: 2}\n",
		[]string{`zklocks-role="operate" ` + alicePub, `zklocks-role="operate" ` + bobPub}, "--approve-within", "2s")
	r.UseKeys(keys, "alice", "bob")
	short := holder.Node[len(holder.Node)-10:]
	alice, bob := r.Open("alice", "alice", 220, 30), r.Open("bob", "bob", 220, 30)
	openOrders(alice)
	alice.WaitText(short)
	alice.Keys("g", "D")
	alice.WaitText("Force-release: delete")
	alice.Keys("y")
	for _, s := range []*tmuxscreen.Screen{alice, bob} {
		s.WaitText("force-release of " + holder.Node + " · token")
		s.WaitText("expired unapproved: nothing was changed")
	}
	bob.Keys(":", "approve", "Enter")
	bob.WaitText("approve: no request is pending")
	if ok, _, err := zks.Connect(t).Exists(holder.Node); err != nil || !ok {
		t.Fatalf("an expired request deleted the holder: %v %v", ok, err)
	}
	if lines := r.Audit(); len(lines) != 0 {
		t.Fatalf("an expired request was audited: %v", lines)
	}
}
