package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// saslTestUsers are the JAAS users of the secured cluster: the contenders'
// application, an operator and a read-only identity.
var saslTestUsers = map[string]string{"app": "app-S4sl-pw", "ops": "ops-S4sl-pw", "reader": "reader-S4sl-pw", "admin": "admin-S4sl-pw"}

// saslSuperUser is the cluster's SASL super user (zookeeper.superUser).
const saslSuperUser = "admin"

// saslTestACL is the ACL of every node the contenders create.
const saslTestACL = "sasl:app:crwda,sasl:ops:crwda,sasl:reader:r"

// securedCluster starts a ZooKeeper that requires SASL of every session,
// with a Curator mutex held at /sasl/curator and a kazoo lock at
// /sasl/kazoo held by k1 with k2 waiting, all as sasl:app with
// saslTestACL. It returns the server and the kazoo holder's node.
func securedCluster(t *testing.T) (*zktest.Server, peers.Contender) {
	t.Helper()
	srv := zktest.Start(t, zktest.SASLDigest(t, saslTestUsers, true), zktest.WithJVMFlags("-Dzookeeper.superUser="+saslSuperUser))
	observer, err := zkwatch.AuthDialer(nil, []zkwatch.Auth{zkwatch.SASLDigestAuth("ops", saslTestUsers["ops"])}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	as := peers.WithSASL("app", saslTestUsers["app"], saslTestACL, observer)
	curator := peers.Start(t, peers.Curator, srv.Addr(), as)
	curator.Acquire(t, "c1", "mutex", "/sasl/curator")
	curator.WaitHeld(t, "c1", 30*time.Second)
	kazoo := peers.Start(t, peers.Kazoo, srv.Addr(), as)
	k1 := kazoo.Acquire(t, "k1", "lock", "/sasl/kazoo")
	kazoo.WaitHeld(t, "k1", 30*time.Second)
	kazoo.Acquire(t, "k2", "lock", "/sasl/kazoo")
	return srv, k1
}

// TestIntegrationSASLShow reads the locks of real Curator and kazoo
// contenders on a cluster that requires SASL: without credentials show
// fails within its timeout saying SASL is required; a wrong password is
// refused as such; with a read-only identity's credentials, from a file
// or a context, the locks are read right; no password shows anywhere.
func TestIntegrationSASLShow(t *testing.T) {
	srv, _ := securedCluster(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	pwFile := filepath.Join(dir, "reader.pw")
	writeFile(t, pwFile, saslTestUsers["reader"]+"\n")
	writeFile(t, filepath.Join(dir, "config", "zklocks", "config.yaml"), fmt.Sprintf(`
contexts:
  secured:
    server: %s
    auth: [{scheme: sasl, user: reader, password-file: %s}]
`, srv.Addr(), pwFile))
	logFile := filepath.Join(dir, "zklocks.log")

	var outputs []string
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		stderr  string
		readsOK bool
	}{
		{"no credentials", []string{"--server", srv.Addr()}, exitFailed, "requires sasl", false},
		{"wrong password", []string{"--server", srv.Addr(), "--auth", "sasl:reader:not-" + saslTestUsers["reader"]}, exitFailed,
			"wrong password or unknown user", false},
		{"unknown user", []string{"--server", srv.Addr(), "--auth", "sasl:nobody:nobody-S4sl-pw"}, exitFailed,
			"wrong password or unknown user", false},
		{"digest is not sasl", []string{"--server", srv.Addr(), "--auth", "digest:reader:" + saslTestUsers["reader"]}, exitFailed,
			"requires sasl", false},
		{"file", []string{"--server", srv.Addr(), "--auth", "sasl:reader:@" + pwFile}, exitOK, "", true},
		{"context", []string{"--context", "secured"}, exitOK, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			args := append([]string{"show", "--json", "--timeout", "20s", "--log-file", logFile}, tc.args...)
			out, errOut, code := run(t, append(args, "/sasl/curator", "/sasl/kazoo")...)
			outputs = append(outputs, out, errOut)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Fatalf("stderr does not say %q: %s", tc.stderr, errOut)
			}
			if took := time.Since(start); took > 25*time.Second {
				t.Fatalf("took %v, past its 20s timeout", took)
			}
			if !tc.readsOK {
				return
			}
			var s showJSON
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, out)
			}
			got := map[string]string{}
			for _, l := range s.Locks {
				got[l.Path] = fmt.Sprintf("%s %d+%d", l.Recipe, l.Holders, l.Waiters)
			}
			want := map[string]string{"/sasl/curator": "curator-mutex 1+0", "/sasl/kazoo": "kazoo-lock 1+1"}
			if fmt.Sprint(sortedPairs(got)) != fmt.Sprint(sortedPairs(want)) {
				t.Fatalf("locks %v, want %v", got, want)
			}
		})
	}
	// Every command, without credentials, fails within its timeout
	// saying the server requires SASL.
	for _, args := range [][]string{
		{"ls", "--root", "/sasl"},
		{"check", "/sasl/kazoo"},
		{"acquire", "/sasl/kazoo", "--hold", "1s"},
		{"release", "/sasl/kazoo/any", "--force", "--yes"},
		{"record", "--out", filepath.Join(dir, "rec.zklocks"), "--root", "/sasl"},
	} {
		t.Run("no credentials "+args[0], func(t *testing.T) {
			start := time.Now()
			full := append(args, "--server", srv.Addr(), "--timeout", "20s", "--log-file", logFile,
				"--audit-log", filepath.Join(dir, "audit.log"))
			_, errOut, code := run(t, full...)
			if code == exitOK || !strings.Contains(errOut, "requires sasl") {
				t.Fatalf("exit %d; stderr does not say SASL is required: %s", code, errOut)
			}
			if took := time.Since(start); took > 25*time.Second {
				t.Fatalf("took %v, past its 20s timeout", took)
			}
		})
	}
	logged, _ := readFileString(logFile)
	for _, pw := range saslTestUsers {
		for _, o := range append(outputs, logged) {
			if strings.Contains(o, pw) {
				t.Fatalf("a password shows in the output or the log: %s", o)
			}
		}
	}
}

func sortedPairs(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// readFileString is the file's content, "" when it cannot be read.
func readFileString(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

// TestIntegrationSASLForceRelease force-releases a kazoo holder's node on
// a cluster that requires SASL: the read-only identity is refused before
// the delete, the refusal naming the parent's ACL and who the session is
// (by whoAmI), and the node is kept; the operator identity's succeeds and
// the waiter gets the lock.
func TestIntegrationSASLForceRelease(t *testing.T) {
	srv, k1 := securedCluster(t)
	dir := t.TempDir()
	audit := filepath.Join(dir, "audit.log")
	readerPw, opsPw := filepath.Join(dir, "reader.pw"), filepath.Join(dir, "ops.pw")
	writeFile(t, readerPw, saslTestUsers["reader"])
	writeFile(t, opsPw, saslTestUsers["ops"])
	base := []string{"release", k1.Node, "--force", "--yes", "--server", srv.Addr(), "--timeout", "20s", "--audit-log", audit, "--log-file", ""}

	_, errOut, code := run(t, append(base, "--auth", "sasl:reader:@"+readerPw)...)
	if code != exitFailed {
		t.Fatalf("reader: exit %d, want %d: %s", code, exitFailed, errOut)
	}
	want := "cannot delete " + k1.Node + ": the ACL of /sasl/kazoo grants DELETE only to sasl:app, sasl:ops; this session is sasl:reader"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "nothing was changed") {
		t.Fatalf("reader's refusal does not say %q:\n%s", want, errOut)
	}
	// The refused attempt is audited, as every attempt is.
	if logged, err := os.ReadFile(audit); err != nil || !strings.Contains(string(logged), `"result":"failed: force-release refused, nothing was changed: cannot delete`) {
		t.Fatalf("the audit log does not hold the refused attempt: %s, %v", logged, err)
	}
	ops, err := zkwatch.Dial(t.Context(), zkwatch.Options{Target: zkwatch.Target{Servers: []string{srv.Addr()}},
		Auth: []zkwatch.Auth{zkwatch.SASLDigestAuth("ops", saslTestUsers["ops"])}})
	if err != nil {
		t.Fatal(err)
	}
	defer ops.Close()
	if _, err := ops.ReadNodeDetail(t.Context(), k1.Node); err != nil {
		t.Fatalf("the node went after a refused release: %v", err)
	}

	_, errOut, code = run(t, append(base, "--auth", "sasl:ops:@"+opsPw)...)
	if code != exitOK {
		t.Fatalf("ops: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "this session (sasl:ops") || !strings.Contains(errOut, "granted to sasl:ops") {
		t.Fatalf("ops's release does not say who may do it:\n%s", errOut)
	}
	if _, err := ops.ReadNodeDetail(t.Context(), k1.Node); err == nil {
		t.Fatal("the node is still there after ops's release")
	}
}

// TestIntegrationSASLDoctor checks what doctor says of the session on a
// cluster that requires SASL: the identities whoAmI gives, the super user
// recognised by the server's answer only, and that authentication is
// required of every session.
func TestIntegrationSASLDoctor(t *testing.T) {
	srv, _ := securedCluster(t)
	for _, tc := range []struct {
		user  string
		super bool
	}{{"ops", false}, {saslSuperUser, true}} {
		t.Run(tc.user, func(t *testing.T) {
			out, errOut, code := run(t, "doctor", "--json", "--server", srv.Addr(), "--timeout", "20s", "--log-file", "",
				"--auth", "sasl:"+tc.user+":"+saslTestUsers[tc.user])
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var d struct {
				Session struct {
					Identities []string `json:"identities"`
					Source     string   `json:"identities_source"`
					Super      *bool    `json:"super_user"`
					Required   *bool    `json:"auth_required"`
				} `json:"session"`
			}
			if err := json.Unmarshal([]byte(out), &d); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, out)
			}
			s := d.Session
			if !slices.Contains(s.Identities, "sasl:"+tc.user) || s.Source != "whoami" {
				t.Fatalf("identities %v from %q; want sasl:%s from whoami", s.Identities, s.Source, tc.user)
			}
			if s.Super == nil || *s.Super != tc.super {
				t.Fatalf("super_user %v, want %v", s.Super, tc.super)
			}
			if s.Required == nil || !*s.Required {
				t.Fatalf("auth_required %v, want true", s.Required)
			}
			if strings.Contains(out+errOut, saslTestUsers[tc.user]) {
				t.Fatal("the password shows in doctor's output")
			}
		})
	}
	out, errOut, code := run(t, "doctor", "--server", srv.Addr(), "--timeout", "20s", "--log-file", "",
		"--auth", "sasl:ops:"+saslTestUsers["ops"])
	if code != exitOK || !strings.Contains(out, "identities      sasl:ops") ||
		!strings.Contains(out, "authentication  required of every session") {
		t.Fatalf("exit %d; text:\n%s\n%s", code, out, errOut)
	}
}
