package model

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// An action by a user who signed in with an SSH certificate names the
// certificate's key id, serial and principal, and reads back the same; a
// plain key's line has no cert field.
func TestAuditLineCertificate(t *testing.T) {
	act := lockcore.Action{At: time.Date(2026, 11, 28, 22, 0, 0, 0, time.UTC), Kind: lockcore.ActionForceRelease,
		Node: "/locks/orders/_c_x-lock-0000000007", Token: 16, User: "alice", Host: "10.2.0.14", Via: ViaSSH,
		Key: "SHA256:abc", Cert: &lockcore.Certificate{KeyID: "alice@corp", Serial: 0, Principal: "oncall"}, Server: "zk1:2181"}
	line := AuditLine(act)
	if !strings.Contains(line, `"key":"SHA256:abc","cert":{"id":"alice@corp","serial":0,"principal":"oncall"}`) {
		t.Fatalf("line %s", line)
	}
	back, err := ParseAuditLine([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if back.Cert == nil || *back.Cert != *act.Cert {
		t.Fatalf("read back %+v", back.Cert)
	}
	act.Cert = nil
	if line := AuditLine(act); strings.Contains(line, "cert") {
		t.Fatalf("a plain key's line names a certificate: %s", line)
	}
}
