package cli

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/internal/demo"
)

func TestDemoBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"naive and recipe", []string{"--naive", "--recipe", "rw"}, "exclude each other"},
		{"recipe naive", []string{"--recipe", "naive"}, "--naive runs the naive lock"},
		{"unknown recipe", []string{"--recipe", "ticket"}, `unknown recipe "ticket"`},
		{"no contenders", []string{"--contenders", "0"}, "--contenders must be 1–100"},
		{"no leases", []string{"--leases", "0"}, "--leases must be at least 1"},
		{"negative long-held", []string{"--long-held", "-1s"}, "--long-held must not be negative"},
		{"throwaway and server", []string{"--throwaway", "--server", "127.0.0.1:1"}, "--throwaway starts a server"},
		{"arguments", []string{"/locks"}, "unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, append([]string{"demo", "--config", ""}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

func TestDemoUnreachableServer(t *testing.T) {
	_, stderr, code := run(t, "demo", "--plain", "--config", "", "--log-file", "", "--server", "127.0.0.1:1", "--timeout", "1s")
	if code != exitUnreachable || !strings.Contains(stderr, "unreachable") {
		t.Errorf("exit %d, stderr %q; want %d and unreachable", code, stderr, exitUnreachable)
	}
}

func TestDemoFinalFigures(t *testing.T) {
	if got := finalFigures(demo.Stats{Releases: 40, Wakeups: 40, Grants: 41}); got != "1.00 wakeups per release over 40 releases, FIFO kept" {
		t.Errorf("fair: %q", got)
	}
	if got := finalFigures(demo.Stats{Releases: 40, Wakeups: 196, Grants: 40, FIFOBreaks: 15}); got != "4.90 wakeups per release over 40 releases, FIFO broken 15 times in 40 grants" {
		t.Errorf("naive: %q", got)
	}
}

func TestDemoAuditsToItsOwnLog(t *testing.T) {
	ops := &operateFlags{auditLog: "/home/ops/.local/state/zklocks/audit.log"}
	if got := demoAudit(ops, false).auditLog; got != "/home/ops/.local/state/zklocks/demo-audit.log" {
		t.Errorf("demo audit log %s", got)
	}
	if got := demoAudit(ops, true).auditLog; got != ops.auditLog {
		t.Errorf("--audit-log given, yet the demo audits to %s", got)
	}
}
