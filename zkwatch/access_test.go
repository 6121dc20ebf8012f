package zkwatch

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

func TestAccessJudge(t *testing.T) {
	server := func(ids ...Identity) Identities { return Identities{List: ids, FromServer: true} }
	creds := func(ids ...Identity) Identities { return Identities{List: ids, Note: "a 3.6 server"} }
	ops := Identity{"sasl", "ops"}
	local := Identity{"ip", "127.0.0.1"}
	for _, tc := range []struct {
		name        string
		acl         []zk.ACL
		who         Identities
		perm        int32
		allowed     bool
		known       bool
		by, message string
	}{
		{"world", zk.WorldACL(zk.PermAll), creds(), zk.PermDelete, true, true, "world:anyone", ""},
		{"sasl granted", []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "ops"}}, server(ops, local), zk.PermDelete, true, true, "sasl:ops", ""},
		{"sasl refused", []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "kafka"}, {Perms: zk.PermRead, Scheme: "sasl", ID: "ops"}},
			server(ops, local), zk.PermDelete, false, true, "",
			"cannot delete /kafka/x: the ACL of /kafka grants DELETE to sasl:kafka only; this session is sasl:ops, ip:127.0.0.1"},
		{"read only is not delete", []zk.ACL{{Perms: zk.PermRead, Scheme: "sasl", ID: "ops"}}, server(ops), zk.PermDelete, false, true, "",
			"grants DELETE to nobody"},
		{"super by the server's word", []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "kafka"}}, server(ops, Identity{"super", ""}),
			zk.PermDelete, true, true, "the super user", ""},
		{"ip range", []zk.ACL{{Perms: zk.PermAll, Scheme: "ip", ID: "127.0.0.0/8"}}, server(local), zk.PermCreate, true, true, "ip:127.0.0.0/8", ""},
		{"ip without whoami", []zk.ACL{{Perms: zk.PermAll, Scheme: "ip", ID: "10.0.0.1"}}, creds(ops), zk.PermDelete, false, false, "", ""},
		{"x509 without whoami", []zk.ACL{{Perms: zk.PermAll, Scheme: "x509", ID: "CN=ops"}}, creds(ops), zk.PermDelete, false, false, "", ""},
		{"x509 by the server", []zk.ACL{{Perms: zk.PermAll, Scheme: "x509", ID: "CN=ops"}}, server(Identity{"x509", "CN=ops"}), zk.PermWrite, true, true, "x509:CN=ops", ""},
		{"digest from credentials", []zk.ACL{{Perms: zk.PermAll, Scheme: "digest", ID: "ops:hash"}}, creds(Identity{"digest", "ops:hash"}),
			zk.PermDelete, true, true, "digest:ops:hash", ""},
		{"digest user without its hash", []zk.ACL{{Perms: zk.PermAll, Scheme: "digest", ID: "ops:hash"}}, server(Identity{"digest", "ops"}),
			zk.PermDelete, false, false, "", ""},
		{"digest is not sasl", []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "ops"}}, server(Identity{"digest", "ops:hash"}), zk.PermDelete, false, true, "", "sasl:ops only"},
		{"other scheme", []zk.ACL{{Perms: zk.PermAll, Scheme: "ldap", ID: "ops"}}, server(ops), zk.PermDelete, false, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Access{Path: "/kafka", Perm: tc.perm, ACL: tc.acl, Who: tc.who}
			a.judge()
			if a.Allowed != tc.allowed || a.Known != tc.known || a.By != tc.by {
				t.Fatalf("allowed %v known %v by %q; want %v %v %q (%s)", a.Allowed, a.Known, a.By, tc.allowed, tc.known, tc.by, a.Why)
			}
			err := a.Denial("delete", "/kafka/x")
			if (err != nil) != (tc.known && !tc.allowed) {
				t.Fatalf("denial %v", err)
			}
			if err != nil {
				if !errors.Is(err, ErrDenied) || !strings.Contains(err.Error(), tc.message) {
					t.Fatalf("denial %q, want it to hold %q", err, tc.message)
				}
			}
			if !tc.known && a.Why == "" {
				t.Fatal("unknown without a reason")
			}
		})
	}
}

func TestAtLeast(t *testing.T) {
	for v, want := range map[string]bool{"3.8.0": true, "3.7.0": true, "3.6.4": false, "3.10.1": true, "4.0.0": true, "3.9.2-SNAPSHOT": true, "": false, "x.y": false} {
		if got := atLeast(v, 3, 7); got != want {
			t.Errorf("atLeast(%q) = %v", v, got)
		}
	}
}
