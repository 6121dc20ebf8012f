package cli

import (
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// TestIntegrationLsSaysWhatADeniedPathHides: a subtree whose ACL denies
// the session is listed as denied, the search goes on, and ls says the
// list is not the whole picture, in its exit code, on stderr and as
// "complete": false; with the credentials, the lock below it is listed
// and all is well.
func TestIntegrationLsSaysWhatADeniedPathHides(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	if err := c.AddAuth("digest", []byte("ops:pw")); err != nil {
		t.Fatal(err)
	}
	acl := zk.DigestACL(zk.PermAll, "ops", "pw")
	for _, p := range []string{root + "/open", root + "/sec"} {
		if _, err := c.Create(p, nil, 0, acl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.SetACL(root+"/open", zk.WorldACL(zk.PermAll), -1); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{root + "/open/lock-", root + "/sec/lock-"} {
		if _, err := c.Create(p, nil, zk.FlagEphemeral|zk.FlagSequence, acl); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := run(t, "ls", "--server", zks.Addr(), "--root", root)
	if code != exitFailed || !strings.Contains(out, root+"/open ") || !strings.Contains(out, "(access denied)") || !strings.Contains(errOut, "1 paths denied to this session") {
		t.Errorf("without credentials: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	out, _, _ = run(t, "ls", "--json", "--server", zks.Addr(), "--root", root)
	if !strings.Contains(out, `"complete": false`) || !strings.Contains(out, `"incomplete": "1 paths denied to this session`) {
		t.Errorf("ls --json without credentials:\n%s", out)
	}
	out, errOut, code = run(t, "ls", "--server", zks.Addr(), "--auth", "digest:ops:pw", "--root", root)
	if code != exitOK || !strings.Contains(out, root+"/sec ") || strings.Contains(out, "denied") {
		t.Errorf("with credentials: exit %d, stderr %q:\n%s", code, errOut, out)
	}
}
