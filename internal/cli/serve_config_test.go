package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// testAuthorizedKey is a new key's authorized-keys line.
func testAuthorizedKey(t *testing.T, comment string) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + " " + comment
}

func writeMode(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// serve --check validates the flags, the config file's serve section, the
// keys file and the host key, without serving or connecting.
func TestServeCheck(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	writeMode(t, keys, testAuthorizedKey(t, "a")+"\n"+`zklocks-role="operate" `+testAuthorizedKey(t, "b")+"\n", 0o600)
	cfg := filepath.Join(dir, "config.yaml")
	writeMode(t, cfg, `current-context: prod
contexts:
  prod: {server: "127.0.0.1:1"}
  staging: {server: "127.0.0.1:2", approve: 2}
  lab: {server: "127.0.0.1:3"}
serve:
  listen: 127.0.0.1:2299
  authorized-keys: authorized_keys
  host-key: state/host_key
  contexts: [prod, staging]
  max-sessions: 7
  idle-timeout: 5m
`, 0o600)

	t.Run("the config file's serve section", func(t *testing.T) {
		out, errOut, code := run(t, "serve", "--check", "--config", cfg)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{"listen           127.0.0.1:2299", filepath.Join(dir, "state", "host_key"),
			keys + ": 1 view, 1 operate", "[prod staging] (sessions start on prod)", "max sessions     7, idle timeout 5m0s",
			"two-person rule  [staging]: each force-release, revoke and fence waits up to 10m0s", "ok:"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in:\n%s", want, out)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "state", "host_key")); err == nil {
			t.Error("--check made the host key")
		}
	})
	t.Run("certificate authorities and revoked keys", func(t *testing.T) {
		ca := testAuthorizedKey(t, "ca@corp")
		caKeys := filepath.Join(dir, "ca_keys")
		writeMode(t, caKeys, `cert-authority,principals="dev,qa" `+ca+"\n"+testAuthorizedKey(t, "a")+"\n"+
			`cert-authority,principals="oncall",zklocks-role="operate" `+ca+"\n", 0o600)
		revoked := filepath.Join(dir, "revoked")
		writeMode(t, revoked, "# gone\n"+testAuthorizedKey(t, "old")+"\n", 0o600)
		out, errOut, code := run(t, "serve", "--check", "--config", cfg, "--authorized-keys", caKeys, "--revoked-keys", revoked)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		fp := func(line string) string {
			k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
			if err != nil {
				t.Fatal(err)
			}
			return ssh.FingerprintSHA256(k)
		}(ca)
		for _, want := range []string{caKeys + ": 1 view, 0 operate",
			"authorities      operate: " + fp + ` ("ca@corp", line 3) principals oncall`,
			"                 view:    " + fp + ` ("ca@corp", line 1) principals dev, qa`,
			"revoked keys     " + revoked + ": 1 listed"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in:\n%s", want, out)
			}
		}
		writeMode(t, revoked, "SSHKRL\n\x00binary", 0o600)
		if _, errOut, code := run(t, "serve", "--check", "--config", cfg, "--revoked-keys", revoked); code != exitUsage || !strings.Contains(errOut, "a key revocation list (KRL)") {
			t.Fatalf("a KRL: exit %d, %q", code, errOut)
		}
	})
	t.Run("session recordings", func(t *testing.T) {
		casts := filepath.Join(dir, "casts")
		if err := os.MkdirAll(casts, 0o700); err != nil {
			t.Fatal(err)
		}
		writeMode(t, filepath.Join(casts, "20261128T220000Z_alice_alice@corp.cast"),
			`{"version":2,"width":80,"height":24,"timestamp":1795903200,"title":"zklocks serve: user \"alice\""}`+"\n"+
				`[0.5,"o","hello"]`+"\n"+`[75.25,"o","bye"]`+"\n", 0o600)
		writeMode(t, filepath.Join(casts, "20261128T230000Z_bob_x.cast"), "not a cast\n", 0o600)
		out, errOut, code := run(t, "serve", "--config", cfg, "--record-sessions", casts, "--list-recordings")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{"2026-11-28T22:00:00Z", "1m15s", `zklocks serve: user "alice"`, "20261128T230000Z_bob_x.cast  unreadable: not an asciicast v2 file"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in:\n%s", want, out)
			}
		}
		out, _, code = run(t, "serve", "--check", "--config", cfg, "--record-sessions", casts, "--record-max-age", "30d")
		if code != exitOK || !strings.Contains(out, "recordings       "+casts+": every session, each up to 64MB, kept 30d") {
			t.Fatalf("--check: exit %d:\n%s", code, out)
		}
	})
	t.Run("flags win", func(t *testing.T) {
		out, errOut, code := run(t, "serve", "--check", "--config", cfg, "--listen", "127.0.0.1:2300", "--contexts", "lab", "--context", "lab")
		if code != exitOK || !strings.Contains(out, "127.0.0.1:2300") || !strings.Contains(out, "[lab] (sessions start on lab)") {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
	})
	bad := []struct {
		name string
		args []string
		want string
	}{
		{"a context not offered", []string{"--context", "lab"}, `context "lab" is not among those offered`},
		{"an unknown context offered", []string{"--contexts", "prod,nowhere"}, `context "nowhere" is offered, but`},
		{"a bad listen address", []string{"--listen", "2222"}, `listen "2222"`},
		{"no sessions", []string{"--max-sessions", "0"}, "max-sessions must be positive"},
		{"a keys file missing", []string{"--authorized-keys", filepath.Join(dir, "none")}, "no such file"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"serve", "--check", "--config", cfg}, tt.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, %q; want %d and %q", code, errOut, exitUsage, tt.want)
			}
		})
	}
	t.Run("a keys file with a bad line", func(t *testing.T) {
		badKeys := filepath.Join(dir, "bad_keys")
		writeMode(t, badKeys, testAuthorizedKey(t, "a")+"\n"+`zklocks-role="root" `+testAuthorizedKey(t, "b")+"\n", 0o600)
		_, errOut, code := run(t, "serve", "--check", "--config", cfg, "--authorized-keys", badKeys)
		if code != exitUsage || !strings.Contains(errOut, `line 2: zklocks-role="root"`) || strings.Contains(errOut, "AAAA") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	t.Run("a host key others can read", func(t *testing.T) {
		hk := filepath.Join(dir, "open_host_key")
		writeMode(t, hk, "whatever", 0o644)
		_, errOut, code := run(t, "serve", "--check", "--config", cfg, "--host-key", hk)
		if code != exitUsage || !strings.Contains(errOut, "readable by others") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	t.Run("no keys file at all", func(t *testing.T) {
		_, errOut, code := run(t, "serve", "--check", "--config", "", "--server", "127.0.0.1:1")
		if code != exitUsage || !strings.Contains(errOut, "no authorized keys") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	t.Run("one server", func(t *testing.T) {
		out, errOut, code := run(t, "serve", "--check", "--config", cfg, "--server", "127.0.0.1:9")
		if code != exitOK || !strings.Contains(out, "server           127.0.0.1:9 (--server is given") {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
	})
}
