package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// testCA is a certificate authority of the test's own.
type testCA struct {
	t      *testing.T
	signer gossh.Signer
}

func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (ca testCA) line(options string) string {
	return options + " " + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ca.signer.PublicKey()))) + " ca@corp"
}

// sign makes a certificate for a new key; change adjusts it before it is
// signed.
func (ca testCA) sign(id string, principals []string, change func(*gossh.Certificate)) *gossh.Certificate {
	ca.t.Helper()
	now := time.Now()
	c := &gossh.Certificate{Key: newSigner(ca.t).PublicKey(), Serial: 7, CertType: gossh.UserCert, KeyId: id,
		ValidPrincipals: principals, ValidAfter: uint64(now.Add(-time.Hour).Unix()), ValidBefore: uint64(now.Add(time.Hour).Unix()),
		Permissions: gossh.Permissions{Extensions: map[string]string{permitPTYExtension: ""}}}
	if change != nil {
		change(c)
	}
	if err := c.SignCert(rand.Reader, ca.signer); err != nil {
		ca.t.Fatal(err)
	}
	return c
}

func TestAdmitCert(t *testing.T) {
	ca, other := testCA{t, newSigner(t)}, testCA{t, newSigner(t)}
	file := ca.line(`cert-authority,principals="oncall",zklocks-role="operate"`) + "\n" +
		ca.line(`cert-authority,principals="dev,qa"`) + "\n" +
		other.line(`cert-authority`) + "\n"
	admits, errs := ParseAuthorizedKeys([]byte(file))
	if len(errs) > 0 || len(admits.Authorities) != 3 || len(admits.Keys) != 0 {
		t.Fatalf("parsed %+v, errors %v", admits, errs)
	}
	revokedFile := filepath.Join(t.TempDir(), "revoked")
	revokedCert := ca.sign("revoked@corp", []string{"oncall"}, nil)
	if err := os.WriteFile(revokedFile, gossh.MarshalAuthorizedKey(revokedCert.Key), 0o600); err != nil {
		t.Fatal(err)
	}
	revoked, err := OpenRevokedKeys(revokedFile)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		user      string
		cert      *gossh.Certificate
		from      string
		role      Role
		principal string
		refused   string
	}{
		{name: "oncall is operate", cert: ca.sign("alice@corp", []string{"oncall"}, nil), role: RoleOperate, principal: "oncall"},
		{name: "dev is view", cert: ca.sign("dan@corp", []string{"dev"}, nil), role: RoleView, principal: "dev"},
		{name: "first line that allows one of its principals", cert: ca.sign("both@corp", []string{"dev", "oncall"}, nil),
			role: RoleOperate, principal: "oncall"},
		{name: "principal not allowed", cert: ca.sign("x@corp", []string{"sales"}, nil), refused: `principals ["sales"] is allowed`},
		{name: "no principals", cert: ca.sign("x@corp", nil, nil), refused: "lacks a principal list"},
		{name: "expired", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.ValidBefore = uint64(time.Now().Add(-time.Minute).Unix())
		}), refused: "cert has expired"},
		{name: "not yet valid", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.ValidAfter = uint64(time.Now().Add(time.Hour).Unix())
		}), refused: "cert is not yet valid"},
		{name: "host certificate", cert: ca.sign("host.corp", []string{"oncall"}, func(c *gossh.Certificate) { c.CertType = gossh.HostCert }),
			refused: "a host certificate"},
		{name: "unlisted authority", cert: testCA{t, newSigner(t)}.sign("x@corp", []string{"oncall"}, nil), refused: "not a listed authority"},
		{name: "source-address allows", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.CriticalOptions = map[string]string{sourceAddressOption: "10.0.0.0/8,127.0.0.1"}
		}), role: RoleOperate, principal: "oncall"},
		{name: "source-address refuses", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.CriticalOptions = map[string]string{sourceAddressOption: "10.0.0.0/8"}
		}), refused: `source-address "10.0.0.0/8" does not allow 127.0.0.1`},
		{name: "source-address unreadable", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.CriticalOptions = map[string]string{sourceAddressOption: "10.0.0.0/8,nonsense"}
		}), refused: "cannot be read"},
		{name: "unknown critical option", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.CriticalOptions = map[string]string{"no-such-option@corp": ""}
		}), refused: "unsupported critical option"},
		{name: "force-command cannot be kept", cert: ca.sign("x@corp", []string{"oncall"}, func(c *gossh.Certificate) {
			c.CriticalOptions = map[string]string{"force-command": "/bin/true"}
		}), refused: `unsupported critical option "force-command"`},
		{name: "revoked key", cert: revokedCert, refused: "revoked: listed in the revoked keys"},
		{name: "line without principals wants the user name", user: "carol",
			cert: other.sign("carol@corp", []string{"carol"}, nil), role: RoleView, principal: "carol"},
		{name: "line without principals, another user", user: "mallory",
			cert: other.sign("carol@corp", []string{"carol"}, nil), refused: "line 3: the user name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := tt.from
			if from == "" {
				from = "127.0.0.1:40000"
			}
			k, c, err := admitCert(admits, revoked, tt.user, tt.cert, from, time.Now())
			if tt.refused != "" {
				if err == nil || !errors.Is(err, errNotAdmitted) || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("admitted %+v %+v, err %v; want refused with %q", k, c, err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if k.Role != tt.role || c.Principal != tt.principal || c.KeyID != tt.cert.KeyId || c.Serial != 7 ||
				k.Fingerprint != gossh.FingerprintSHA256(tt.cert.Key) || k.Authority == "" {
				t.Fatalf("admitted %+v %+v, want role %s principal %s", k, c, tt.role, tt.principal)
			}
		})
	}
	// The authority's own key listed revokes every certificate it signed.
	if err := os.WriteFile(revokedFile, []byte("# the old CA\n"+string(gossh.MarshalAuthorizedKey(ca.signer.PublicKey()))), 0o600); err != nil {
		t.Fatal(err)
	}
	if reloaded, err := revoked.Refresh(); !reloaded || err != nil {
		t.Fatalf("refresh: %v %v", reloaded, err)
	}
	if _, _, err := admitCert(admits, revoked, "", ca.sign("alice@corp", []string{"oncall"}, nil), "127.0.0.1:1", time.Now()); !errors.Is(err, errRevoked) {
		t.Fatalf("a certificate of a revoked authority: %v", err)
	}
	// An unreadable list revokes everything; a KRL is refused by name.
	if err := os.WriteFile(revokedFile, []byte(krlMagic+"binary"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := revoked.Refresh(); !errors.Is(err, errKRL) {
		t.Fatalf("a KRL read as: %v", err)
	}
	if _, _, err := admitCert(admits, revoked, "", ca.sign("alice@corp", []string{"oncall"}, nil), "127.0.0.1:1", time.Now()); !errors.Is(err, errRevoked) {
		t.Fatalf("admitted while the revoked keys cannot be read: %v", err)
	}
}

func TestParseAuthorityLines(t *testing.T) {
	ca := testCA{t, newSigner(t)}
	plain, _ := newKey(t, "bob@laptop")
	tests := []struct {
		name       string
		line       string
		principals []string
		role       Role
		err        string
	}{
		{name: "role and principals", line: ca.line(`cert-authority,principals="oncall,sre",zklocks-role="operate"`),
			principals: []string{"oncall", "sre"}, role: RoleOperate},
		{name: "no principals option", line: ca.line(`cert-authority`), role: RoleView},
		{name: "empty principals allow none", line: ca.line(`cert-authority,principals=""`), principals: []string{}, role: RoleView},
		{name: "principals without cert-authority", line: `principals="oncall" ` + plain, err: "belongs on a cert-authority line only"},
		{name: "other OpenSSH option", line: ca.line(`cert-authority,from="10.0.0.0/8"`), err: `option "from"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			admits, errs := ParseAuthorizedKeys([]byte(tt.line))
			if tt.err != "" {
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.err) {
					t.Fatalf("errors %v, want %q", errs, tt.err)
				}
				return
			}
			if len(errs) > 0 || len(admits.Authorities) != 1 {
				t.Fatalf("%+v %v", admits, errs)
			}
			a := admits.Authorities[0]
			if a.Role != tt.role || strings.Join(a.Principals, ",") != strings.Join(tt.principals, ",") || (a.Principals == nil) != (tt.principals == nil) {
				t.Fatalf("authority %+v, want principals %q role %s", a, tt.principals, tt.role)
			}
		})
	}
}
