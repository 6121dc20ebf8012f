package cli

import (
	"strings"
	"testing"
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
