package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// newKey returns a public key's authorized-keys line and its fingerprint.
func newKey(t *testing.T, comment string) (line, fp string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k))) + " " + comment, gossh.FingerprintSHA256(k)
}

func TestParseAuthorizedKeys(t *testing.T) {
	plain, plainFP := newKey(t, "bob@laptop")
	op, opFP := newKey(t, "alice@laptop")
	view, viewFP := newKey(t, "carol@laptop")
	tests := []struct {
		name  string
		file  string
		want  map[string]Role
		errs  []string // each error's text, in order
		lines map[string]int
	}{
		{name: "plain key is view", file: plain, want: map[string]Role{plainFP: RoleView}},
		{name: "operate option", file: `zklocks-role="operate" ` + op, want: map[string]Role{opFP: RoleOperate}},
		{name: "view option", file: `zklocks-role="view" ` + view, want: map[string]Role{viewFP: RoleView}},
		{name: "comments and blank lines", file: "# the on-call team\n\n" + plain + "\n  \n# end\n" + `zklocks-role="operate" ` + op,
			want: map[string]Role{plainFP: RoleView, opFP: RoleOperate}, lines: map[string]int{plainFP: 3, opFP: 6}},
		{name: "unknown role admits nobody on that line", file: plain + "\n" + `zklocks-role="admin" ` + op,
			want: map[string]Role{plainFP: RoleView}, errs: []string{`line 2: zklocks-role="admin": the roles are "view" and "operate"`}},
		{name: "role without a value", file: `zklocks-role ` + op, want: map[string]Role{},
			errs: []string{"line 1: zklocks-role needs a value"}},
		{name: "OpenSSH option is refused", file: `from="10.0.0.0/8" ` + op, want: map[string]Role{},
			errs: []string{`line 1: option "from": the only options zklocks serve reads are zklocks-role`}},
		{name: "not a key", file: "ssh-ed25519 notbase64 x", want: map[string]Role{},
			errs: []string{"line 1: not a public key in OpenSSH's format"}},
		{name: "same key twice with two roles admits neither", file: plain + "\n" + `zklocks-role="operate" ` + plain,
			want: map[string]Role{}, errs: []string{"line 2: the key of line 1 again, with another role"}},
		{name: "same key twice with one role", file: plain + "\n" + plain, want: map[string]Role{plainFP: RoleView}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			admits, errs := ParseAuthorizedKeys([]byte(tt.file))
			keys := admits.Keys
			got := map[string]Role{}
			for fp, k := range keys {
				got[fp] = k.Role
				if k.Fingerprint != fp {
					t.Errorf("key %s says fingerprint %s", fp, k.Fingerprint)
				}
				if want, ok := tt.lines[fp]; ok && k.Line != want {
					t.Errorf("key %s on line %d, want %d", fp, k.Line, want)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("keys %v, want %v", got, tt.want)
			}
			for fp, r := range tt.want {
				if got[fp] != r {
					t.Errorf("key %s: role %q, want %q", fp, got[fp], r)
				}
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			for i, e := range errs {
				if !strings.HasPrefix(e.Error(), tt.errs[i]) {
					t.Errorf("error %q, want it to start %q", e, tt.errs[i])
				}
				if strings.Contains(e.Error(), "AAAA") {
					t.Errorf("error quotes the key: %q", e)
				}
			}
		})
	}
}

// A key removed from the file, or the file removed, admits nobody once
// the change is seen; a file with a bad line does not start a server.
func TestKeyFileRefresh(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "authorized_keys")
	a, aFP := newKey(t, "a")
	b, bFP := newKey(t, "b")
	write := func(s string) {
		t.Helper()
		// A new file renamed over the old, as editors and config
		// management write it.
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write(a + "\n" + `zklocks-role="operate" ` + b + "\n")
	f, err := OpenKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := f.Lookup(bFP); !ok || k.Role != RoleOperate {
		t.Fatalf("b: %+v %v", k, ok)
	}
	if reloaded, _ := f.Refresh(); reloaded {
		t.Fatal("an unchanged file was read again")
	}
	write(a + "\n")
	if reloaded, errs := f.Refresh(); !reloaded || len(errs) > 0 {
		t.Fatalf("changed file: reloaded %v, errors %v", reloaded, errs)
	}
	if _, ok := f.Lookup(bFP); ok {
		t.Fatal("b still admitted after its line was removed")
	}
	if _, ok := f.Lookup(aFP); !ok {
		t.Fatal("a no longer admitted")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if reloaded, errs := f.Refresh(); !reloaded || len(errs) != 1 {
		t.Fatalf("removed file: reloaded %v, errors %v", reloaded, errs)
	}
	if _, ok := f.Lookup(aFP); ok || f.Len() != 0 {
		t.Fatal("a removed keys file still admits a key")
	}
	write(a + "\nnot a key\n")
	if _, err := OpenKeyFile(path); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a bad line at start: %v", err)
	}
}
