package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// The follower tells the whole lines appended since it started, on nodes
// under its roots, once each; a line half written waits for its end, and
// a log rotated is read from its start.
func TestAuditFollowerTellsAppendedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	line := func(node string, at time.Time) string {
		return model.AuditLine(lockcore.Action{At: at, Kind: lockcore.ActionForceRelease, Node: node, Token: 7, Owner: 0x65, User: "sre", Via: model.ViaCLI}) + "\n"
	}
	at := time.Date(2026, 11, 28, 20, 51, 40, 0, time.UTC)
	if err := os.WriteFile(path, []byte(line("/locks/a/old", at)), 0o600); err != nil {
		t.Fatal(err)
	}
	var told []string
	var warned []error
	f := &auditFollower{path: path, roots: []string{"/locks"}, tell: func(a lockcore.Action) { told = append(told, a.Node) },
		warn: func(err error) { warned = append(warned, err) }}
	f.offset, f.file = f.size()
	appendTo := func(s string) {
		t.Helper()
		w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	whole := line("/locks/a/new", at) + line("/elsewhere/b", at)
	half := line("/locks/c/late", at)
	appendTo(whole + half[:20])
	f.read()
	if len(told) != 1 || told[0] != "/locks/a/new" {
		t.Fatalf("told %q, want /locks/a/new alone (the line before the start, one outside the roots and one half written not)", told)
	}
	appendTo(half[20:] + "not an action\n")
	f.read()
	f.read()
	if len(told) != 2 || told[1] != "/locks/c/late" || len(warned) != 1 {
		t.Fatalf("told %q, warned %v; want /locks/c/late once, the bad line said once", told, warned)
	}
	// Rotated: a new file in its place is read from its start.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(line("/locks/d/rotated", at)), 0o600); err != nil {
		t.Fatal(err)
	}
	f.read()
	if len(told) != 3 || told[2] != "/locks/d/rotated" {
		t.Errorf("after rotation told %q, want /locks/d/rotated", told)
	}
}
