package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseAuthFlag(t *testing.T) {
	const pw = "Fl4g-Secret"
	for _, tc := range []struct {
		name    string
		value   string
		want    credential
		wantErr string
	}{
		{"literal", "digest:ops:" + pw, credential{scheme: "digest", user: "ops", password: pw, origin: "--auth"}, ""},
		{"literal with colons", "digest:ops:" + pw + ":x", credential{scheme: "digest", user: "ops", password: pw + ":x", origin: "--auth"}, ""},
		{"file", "digest:ops:@/run/pw", credential{scheme: "digest", user: "ops", file: "/run/pw", origin: "--auth"}, ""},
		{"variable", "digest:ops:env:ZK_PASS", credential{scheme: "digest", user: "ops", env: "ZK_PASS", origin: "--auth"}, ""},
		{"lone @ is a password", "digest:ops:@", credential{scheme: "digest", user: "ops", password: "@", origin: "--auth"}, ""},
		{"sasl", "sasl:ops:" + pw, credential{scheme: "sasl", user: "ops", password: pw, origin: "--auth"}, ""},
		{"sasl file", "sasl:ops:@/run/pw", credential{scheme: "sasl", user: "ops", file: "/run/pw", origin: "--auth"}, ""},
		{"sasl variable", "sasl:ops:env:ZK_PASS", credential{scheme: "sasl", user: "ops", env: "ZK_PASS", origin: "--auth"}, ""},
		{"other scheme", "ip:ops:" + pw, credential{}, "want SCHEME:USER:PASSWORD"},
		{"no scheme", "ops:" + pw, credential{}, "want SCHEME:USER:PASSWORD"},
		{"no password", "digest:ops" + pw, credential{}, "non-empty user and password"},
		{"empty user", "digest::" + pw, credential{}, "non-empty user and password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAuthFlag(tc.value)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), pw) {
					t.Errorf("the error quotes the password: %v", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestCredentialResolve(t *testing.T) {
	dir := t.TempDir()
	pwFile, emptyFile, openFile := filepath.Join(dir, "pw"), filepath.Join(dir, "empty"), filepath.Join(dir, "open")
	writeFile(t, pwFile, "from-file\r\n")
	writeFile(t, emptyFile, "\n")
	writeFile(t, openFile, "from-open-file\n")
	if err := os.Chmod(openFile, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ZKLOCKS_TEST_PW", "from-env")
	t.Setenv("ZKLOCKS_TEST_EMPTY", "")
	for _, tc := range []struct {
		name    string
		c       credential
		secret  string
		wantErr string
	}{
		{"literal", credential{scheme: "digest", user: "ops", password: "lit"}, "ops:lit", ""},
		{"variable", credential{scheme: "digest", user: "ops", env: "ZKLOCKS_TEST_PW"}, "ops:from-env", ""},
		{"file without its newline", credential{scheme: "digest", user: "ops", file: pwFile}, "ops:from-file", ""},
		{"sasl file", credential{scheme: "sasl", user: "ops", file: pwFile}, "from-file", ""},
		{"empty variable", credential{scheme: "digest", user: "ops", env: "ZKLOCKS_TEST_EMPTY", origin: "context prod"}, "", "context prod: password variable $ZKLOCKS_TEST_EMPTY is not set"},
		{"unset variable", credential{scheme: "digest", user: "ops", env: "ZKLOCKS_TEST_UNSET"}, "", "$ZKLOCKS_TEST_UNSET is not set"},
		{"empty file", credential{scheme: "sasl", user: "ops", file: emptyFile}, "", "is empty"},
		{"missing file", credential{scheme: "sasl", user: "ops", file: filepath.Join(dir, "missing")}, "", "missing"},
		{"world-readable file", credential{scheme: "sasl", user: "ops", file: openFile}, "", "open to every user of this machine (mode 0644): chmod 600"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.c.resolve()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || a.Scheme != tc.c.scheme || string(a.Secret) != tc.secret || a.IsSASL() != (tc.c.scheme == "sasl") {
				t.Errorf("got %s %q, %v; want %s %q", a.Scheme, a.Secret, err, tc.c.scheme, tc.secret)
			}
		})
	}
}

// TestLogFile checks where go-zookeeper's complaints go when no server
// answers: by default to a private file under $XDG_STATE_HOME, never to the
// terminal; --log-file "" drops them.
func TestLogFile(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path := filepath.Join(state, "zklocks", "zklocks.log")
	unreachable := []string{"show", "--server", "127.0.0.1:1", "--timeout", "1500ms", "--auth", "digest:ops:L0g-Secret"}

	_, errOut, code := run(t, append(unreachable, "--log-file", "", "/locks")...)
	if code != exitUnreachable {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("--log-file \"\" left a log: %v", err)
	}

	_, errOut, code = run(t, append(unreachable, "/locks")...)
	if code != exitUnreachable {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(errOut, "zklocks:") != 1 || strings.Count(errOut, "connection refused") != 1 || strings.Contains(errOut, "failed to connect") {
		t.Errorf("stderr has more than the final error: %q", errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "failed to connect to 127.0.0.1:1") || strings.Contains(string(b), "L0g-Secret") {
		t.Errorf("log:\n%s", b)
	}
	for p, mode := range map[string]fs.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s has mode %o, want %o", p, fi.Mode().Perm(), mode)
		}
	}
}

// TestPersistentFlagsShared checks that load sees flags given after a
// subcommand, where cobra parses them into the subcommand's flag set.
func TestPersistentFlagsShared(t *testing.T) {
	for _, args := range [][]string{
		{"--server", "x:1", "--root", "/a"},
		{"--root=/a", "-s", "x:1"},
	} {
		s, err := loadSettings(t, testConfig, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		if s.server != "x:1" || s.source["server"] != "--server" || len(s.roots) != 1 || s.roots[0] != "/a" {
			t.Errorf("%v: server %s from %s, roots %v", args, s.server, s.source["server"], s.roots)
		}
	}
}
