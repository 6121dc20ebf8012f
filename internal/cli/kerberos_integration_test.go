package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
)

// TestIntegrationKerberosShowAndForceRelease: a Curator client logged in
// by its keytab holds a lock under a directory only two Kerberos
// principals may change. show reads it with --auth kerberos:PRINCIPAL:@KEYTAB
// and with a context's kerberos entry; a stale keytab fails saying so,
// naming no secret; release --force as the operator's principal takes the
// holder's node, which the same release without credentials may not.
func TestIntegrationKerberosShowAndForceRelease(t *testing.T) {
	k := kdc.StartZooKeeper(t, kdc.ZooKeeperPrincipal, kdc.CuratorPrincipal, "ops")
	srv := k.Server
	stale := k.Keytab("ops-stale.keytab", "ops")
	keytab := k.Keytab("ops.keytab", "ops") // a new key: stale's is refused

	const lock = "/krb/curator"
	holder := k.CuratorHolds(t, lock, "ops")
	plain := srv.Connect(t)

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	writeFile(t, filepath.Join(dir, "config", "zklocks", "config.yaml"), fmt.Sprintf(`
contexts:
  kerberized:
    server: %s
    auth: [{scheme: kerberos, user: ops@ZKLOCKS.TEST, keytab: %s}]
`, srv.Addr(), keytab))

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"keytab", []string{"--server", srv.Addr(), "--auth", "kerberos:ops@ZKLOCKS.TEST:@" + keytab}, exitOK, ""},
		{"context", []string{"--context", "kerberized"}, exitOK, ""},
		{"stale keytab", []string{"--server", srv.Addr(), "--auth", "kerberos:ops:@" + stale}, exitFailed, "the KDC refused the key of ops@ZKLOCKS.TEST in keytab " + stale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(t, append(append([]string{"show", "--json", "--timeout", "20s", "--log-file", ""}, tc.args...), lock)...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Fatalf("exit %d, want %d; stderr does not say %q: %s", code, tc.code, tc.stderr, errOut)
			}
			if tc.code != exitOK {
				return
			}
			var s showJSON
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, out)
			}
			if len(s.Locks) != 1 || s.Locks[0].Recipe != "curator-mutex" || s.Locks[0].Holders != 1 {
				t.Fatalf("show read %+v, want the curator mutex held once", s.Locks)
			}
		})
	}

	audit := filepath.Join(dir, "audit.log")
	base := []string{"release", holder.Node, "--force", "--yes", "--server", srv.Addr(), "--timeout", "20s", "--audit-log", audit, "--log-file", ""}
	if _, errOut, code := run(t, base...); code == exitOK {
		t.Fatalf("a force-release without credentials succeeded: %s", errOut)
	}
	if ok, _, err := plain.Exists(holder.Node); err != nil || !ok {
		t.Fatalf("the holder's node after a refused release: exists %t, %v", ok, err)
	}
	if _, errOut, code := run(t, append(base, "--auth", "kerberos:ops:@"+keytab)...); code != exitOK {
		t.Fatalf("force-release as ops: exit %d: %s", code, errOut)
	}
	if ok, _, err := plain.Exists(holder.Node); err != nil || ok {
		t.Fatalf("the holder's node after the force-release: exists %t, %v", ok, err)
	}
	logged, err := os.ReadFile(audit)
	if err != nil || !strings.Contains(string(logged), holder.Node) {
		t.Fatalf("the audit log does not name %s: %s, %v", holder.Node, logged, err)
	}
}
