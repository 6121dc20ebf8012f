package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

func TestReadOnlyRefusesEveryDestructiveCommand(t *testing.T) {
	audit := filepath.Join(t.TempDir(), "audit.log")
	// No server listens here: a command that tried to connect would fail
	// with exit 2, not with the read-only refusal.
	for _, args := range [][]string{
		{"acquire", "/l"},
		{"acquire", "/l", "--", "true"},
		{"release", "/l/n", "--force", "--yes"},
		{"revoke", "/l/n", "--yes"},
		{"fence", "/l", "--yes"},
	} {
		full := append([]string{args[0], "--read-only", "--server", "127.0.0.1:1", "--audit-log", audit}, args[1:]...)
		_, errOut, code := run(t, full...)
		if code != exitFailed || !strings.Contains(errOut, "read-only") {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	if _, err := os.Stat(audit); !os.IsNotExist(err) {
		t.Fatalf("nothing happened, so no audit log: %v", err)
	}
}

// TestReadOnlyContextNamed: a command refused because its context is
// read-only says so, naming the context and the file, not --read-only.
func TestReadOnlyContextNamed(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("contexts:\n  prod:\n    server: 127.0.0.1:1\n    read-only: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "release", "/l/n", "--force", "--yes", "--config", cfg, "--context", "prod",
		"--audit-log", filepath.Join(dir, "audit.log"))
	if code != exitFailed || !strings.Contains(errOut, "release refused: read-only: zklocks changes nothing: context prod is read-only") ||
		!strings.Contains(errOut, cfg) || strings.Contains(errOut, "started with --read-only") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, errOut, _ = run(t, "release", "/l/n", "--force", "--yes", "--read-only", "--server", "127.0.0.1:1",
		"--audit-log", filepath.Join(dir, "audit.log"))
	if !strings.Contains(errOut, "started with --read-only") {
		t.Fatalf("the flag: %s", errOut)
	}
}

func TestIntegrationOperateCommands(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	audit := filepath.Join(t.TempDir(), "state", "audit.log")
	c := zks.Connect(t)
	mk := func(p string, flags int32) string {
		t.Helper()
		created, err := c.Create(p, []byte("10.0.0.7"), flags, zk.WorldACL(zk.PermAll))
		if err != nil {
			t.Fatal(err)
		}
		return created
	}
	mk(root+"/op", 0)
	holder := mk(root+"/op/_c_5d8e0f1a-1111-4222-8333-944455556666-lock-", zk.FlagEphemeral|zk.FlagSequence)

	t.Run("release without a terminal or --yes refuses, says what it would delete and audits the attempt", func(t *testing.T) {
		_, errOut, code := run(t, "release", holder, "--force", "--server", server, "--audit-log", audit)
		if code != exitFailed || !strings.Contains(errOut, "--yes") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, "role     holding exclusive #0 of 1 in "+root+"/op (curator-mutex), held for") {
			t.Errorf("the preview does not say the node holds, and where: %s", errOut)
		}
		if ok, _, _ := c.Exists(holder); !ok {
			t.Fatal("the node was deleted without confirmation")
		}
		a, err := model.ParseAuditLine([]byte(strings.TrimSpace(readFile(t, audit))))
		if err != nil {
			t.Fatalf("the refused attempt is not the audit log's one line: %v", err)
		}
		if a.Kind != lockcore.ActionForceRelease || a.Node != holder || a.Done() || !strings.Contains(a.Failed, "without confirmation") {
			t.Fatalf("audit of the refused attempt: %+v", a)
		}
	})

	t.Run("release of a single-node lock's holder says it holds that lock", func(t *testing.T) {
		mk(root+"/single", 0)
		single := mk(root+"/single/lock", zk.FlagEphemeral)
		_, errOut, code := run(t, "release", single, "--force", "--server", server, "--audit-log", filepath.Join(t.TempDir(), "audit.log"))
		if code != exitFailed || !strings.Contains(errOut, "role     holding exclusive #0 of 1 in "+single+" (ephemeral), held for") {
			t.Errorf("exit %d; the preview does not say the node holds its own lock: %s", code, errOut)
		}
		if err := c.Delete(single, -1); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("release of a kazoo semaphore's waiter says it waits in the semaphore", func(t *testing.T) {
		mk(root+"/ksem", 0)
		lease := mk(root+"/ksem/1bbe7509aaaabbbbccccddddeeeeffff", zk.FlagEphemeral)
		mk(root+"/ksem-__lock__", 0)
		waiter := mk(root+"/ksem-__lock__/0a3bb9eba7bb48afb4e619011cd1f6f7__lock__", zk.FlagEphemeral|zk.FlagSequence)
		_, errOut, code := run(t, "release", waiter, "--force", "--server", server, "--audit-log", filepath.Join(t.TempDir(), "audit.log"))
		if code != exitFailed || !strings.Contains(errOut, "role     waiting lease #1 of 2 in "+root+"/ksem (kazoo-semaphore), for") {
			t.Errorf("exit %d; the preview does not say the node waits in its semaphore: %s", code, errOut)
		}
		for _, n := range []string{waiter, lease} {
			if err := c.Delete(n, -1); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("release needs --force", func(t *testing.T) {
		if _, _, code := run(t, "release", holder, "--yes", "--server", server, "--audit-log", audit); code != exitUsage {
			t.Fatalf("exit %d", code)
		}
	})

	t.Run("revoke writes the request", func(t *testing.T) {
		_, errOut, code := run(t, "revoke", holder, "--yes", "--wait", "0", "--server", server, "--audit-log", audit)
		if code != exitOK || !strings.Contains(errOut, "revoke requested") || strings.Contains(errOut, "done") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if data, _, _ := c.Get(holder); string(data) != "__REVOKE__" {
			t.Fatalf("data %q", data)
		}
	})

	t.Run("revoke refuses nodes whose clients ignore it", func(t *testing.T) {
		kazoo := mk(root+"/op/0a1b2c3d4e5f60718293a4b5c6d7e8f9__lock__", zk.FlagEphemeral|zk.FlagSequence)
		persistent := mk(root+"/op/_c_5d8e0f1a-1111-4222-8333-944455556667-lock-", zk.FlagSequence)
		for _, node := range []string{kazoo, persistent} {
			_, errOut, code := run(t, "revoke", node, "--yes", "--server", server, "--audit-log", audit)
			if code != exitFailed || !strings.Contains(errOut, "not revocable") || !strings.Contains(errOut, "nothing was changed") {
				t.Errorf("revoke %s: exit %d: %s", node, code, errOut)
			}
			if data, _, _ := c.Get(node); string(data) != "10.0.0.7" {
				t.Errorf("%s: data %q after a refused revoke", node, data)
			}
			if err := c.Delete(node, -1); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("release --force --yes deletes and audits", func(t *testing.T) {
		_, errOut, code := run(t, "release", holder, "--force", "--yes", "--server", server, "--audit-log", audit)
		if code != exitOK || !strings.Contains(errOut, "session  0x") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if ok, _, _ := c.Exists(holder); ok {
			t.Fatal("the node is still there")
		}
		info, err := os.Stat(audit)
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("audit log mode: %v %v", info, err)
		}
		lines := strings.Split(strings.TrimSpace(readFile(t, audit)), "\n")
		last, err := model.ParseAuditLine([]byte(lines[len(lines)-1]))
		if err != nil {
			t.Fatal(err)
		}
		// The refused attempt, the revoke, and this.
		if len(lines) != 3 || last.Kind != lockcore.ActionForceRelease || last.Node != holder || !last.Done() || last.User == "" {
			t.Fatalf("audit:\n%s", readFile(t, audit))
		}
	})

	t.Run("acquire runs a command under the lock", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "env")
		_, errOut, code := run(t, "acquire", root+"/op/job", "--server", server, "--audit-log", audit, "--",
			"sh", "-c", "echo $ZKLOCKS_TOKEN $ZKLOCKS_NODE > "+out+"; exit 7")
		if code != 7 {
			t.Fatalf("exit %d, want the command's 7: %s", code, errOut)
		}
		if got := readFile(t, out); !strings.Contains(got, root+"/op/job/_c_") {
			t.Fatalf("command environment: %q", got)
		}
		if names, _, _ := c.Children(root + "/op/job"); len(names) != 0 {
			t.Fatalf("the lock was not released: %v", names)
		}
	})

	t.Run("acquire gives up after --timeout with exit 3", func(t *testing.T) {
		mk(root+"/op/busy", 0)
		mk(root+"/op/busy/_c_00000000-1111-4222-8333-944455556666-lock-", zk.FlagEphemeral|zk.FlagSequence)
		_, errOut, code := run(t, "acquire", root+"/op/busy", "--timeout", "3s", "--hold", "1s", "--server", server, "--audit-log", audit)
		if code != exitNotAcquired {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if names, _, _ := c.Children(root + "/op/busy"); len(names) != 1 {
			t.Fatalf("our node must be gone after the timeout: %v", names)
		}
	})

	t.Run("fence: dry run, then the orphan goes", func(t *testing.T) {
		mk(root+"/op/orphan", 0)
		orphan := mk(root+"/op/orphan/lock-", zk.FlagSequence) // persistent: no session will ever remove it
		out, errOut, code := run(t, "fence", root+"/op/orphan", "--dry-run", "--server", server, "--audit-log", audit)
		if code != exitOK || !strings.Contains(out, orphan) || !strings.Contains(out, "persistent") ||
			!strings.Contains(errOut, "dry run: nothing was deleted (1 node would be") {
			t.Fatalf("dry run exit %d:\n%s%s", code, out, errOut)
		}
		if ok, _, _ := c.Exists(orphan); !ok {
			t.Fatal("a dry run deleted")
		}
		if _, errOut, code := run(t, "fence", root+"/op/orphan", "--yes", "--server", server, "--audit-log", audit); code != exitOK {
			t.Fatalf("fence exit %d: %s", code, errOut)
		}
		if ok, _, _ := c.Exists(orphan); ok {
			t.Fatal("the orphan survived the fence")
		}
		if !strings.Contains(readFile(t, audit), `"action":"fence"`) {
			t.Fatal("fence was not audited")
		}
	})
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadOnlyBadgeNamesTheContext: the UI's badge says a read-only
// context is one; --read-only keeps the plain badge.
func TestReadOnlyBadgeNamesTheContext(t *testing.T) {
	byContext := settings{readOnly: true, context: "prod", source: map[string]string{"read-only": "context prod"}}
	byFlag := settings{readOnly: true, context: "prod", source: map[string]string{"read-only": "flag"}}
	if got := byContext.readOnlyBadge(); got != "READ-ONLY CONTEXT" {
		t.Errorf("read-only by its context: badge %q", got)
	}
	if got := byFlag.readOnlyBadge(); got != "" {
		t.Errorf("read-only by --read-only: badge %q, want the plain one", got)
	}
}
