package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/kdc"
)

// TestIntegrationKerberosServiceName: a ZooKeeper whose Kerberos principal
// is zk/localhost, not zookeeper/localhost, holds a lock only ops may read.
// Without the service name, show fails saying which principal the KDC does
// not know and which settings name it; with --sasl-service zk, or a
// context's sasl block, it reads the lock as ops.
func TestIntegrationKerberosServiceName(t *testing.T) {
	k := kdc.StartZooKeeper(t, "zk/localhost", "ops")
	realm, srv := k.Realm, k.Server
	keytab := realm.Keytab("ops.keytab", "ops")

	const lock = "/krbsvc/lock"
	plain := srv.Connect(t)
	for _, p := range []string{"/krbsvc", lock} {
		if _, err := plain.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := plain.Create(lock+"/_c_5f2a1b3c-1d2e-4f50-8a9b-0c1d2e3f4a5b-lock-0000000000", nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.SetACL(lock, []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: realm.Principal("ops")}}, -1); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	writeFile(t, filepath.Join(dir, "config", "zklocks", "config.yaml"), fmt.Sprintf(`
contexts:
  zk-service:
    server: %s
    auth: [{scheme: kerberos, user: ops, keytab: %s}]
    sasl: {service: zk}
`, srv.Addr(), keytab))

	auth := []string{"--server", srv.Addr(), "--auth", "kerberos:ops:@" + keytab}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"default service", auth, exitFailed, []string{"zookeeper/localhost@ZKLOCKS.TEST", "service principal unknown to the KDC",
			"the service asked for is zookeeper (default); --sasl-service"}},
		{"--sasl-service", append(auth, "--sasl-service", "zk"), exitOK, nil},
		{"context", []string{"--context", "zk-service"}, exitOK, nil},
		{"context, overridden", []string{"--context", "zk-service", "--sasl-service", "zookeeper"}, exitFailed,
			[]string{"zookeeper/localhost@ZKLOCKS.TEST", "the service asked for is zookeeper (--sasl-service)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A refusal no second attempt can mend ends the command at
			// once, not when its --timeout runs out.
			const timeout = 2 * time.Minute
			began := time.Now()
			out, errOut, code := run(t, append(append([]string{"show", "--json", "--timeout", timeout.String(), "--log-file", ""}, tc.args...), lock)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			if took := time.Since(began); tc.code != exitOK && took >= timeout {
				t.Fatalf("the refusal waited out --timeout %s (%s)", timeout, took)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(errOut, want) {
					t.Fatalf("stderr does not say %q: %s", want, errOut)
				}
			}
			if tc.code != exitOK {
				return
			}
			var s showJSON
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, out)
			}
			if len(s.Locks) != 1 || s.Locks[0].Holders != 1 {
				t.Fatalf("show read %+v, want the lock held once", s.Locks)
			}
		})
	}
}
