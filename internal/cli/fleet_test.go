package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/model/check"
)

// --all-contexts refuses, before connecting anywhere, what names one
// cluster or cannot apply to every one, saying why.
func TestAllContextsRefusals(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.yaml")
	writeFile(t, config, "contexts:\n  a: {server: 127.0.0.1:1}\n  b: {server: 127.0.0.1:2}\n")
	// The current context takes a kerberos credential, so the flags
	// below would apply to it; another has none.
	kerberized := filepath.Join(dir, "kerberized.yaml")
	writeFile(t, kerberized, "current-context: k\ncontexts:\n"+
		"  k: {server: 127.0.0.1:1, auth: [{scheme: kerberos, user: ops@EXAMPLE.COM}], sasl: {service: zk}}\n"+
		"  plain: {server: 127.0.0.1:2}\n")
	empty := filepath.Join(dir, "empty.yaml")
	writeFile(t, empty, "contexts: {}\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"ls with --server", []string{"ls", "--all-contexts", "--config", config, "--server", "x:1"}, exitUsage, "--all-contexts and --server exclude each other"},
		{"ls with --context", []string{"ls", "--all-contexts", "--config", config, "--context", "a"}, exitUsage, "--all-contexts and --context exclude each other"},
		{"ls with --depth", []string{"ls", "--all-contexts", "--config", config, "--depth", "2"}, exitUsage, "--all-contexts and --depth exclude each other"},
		{"ls with no contexts", []string{"ls", "--all-contexts", "--config", empty}, exitUsage, "defines no contexts"},
		{"check with a path", []string{"check", "--all-contexts", "--config", config, "/locks"}, int(check.Unknown), "it takes no PATH"},
		{"check with --server", []string{"check", "--all-contexts", "--config", config, "--server", "x:1"}, int(check.Unknown), "exclude each other"},
		{"ls with --sasl-service", []string{"ls", "--all-contexts", "--config", kerberized, "--sasl-service", "zk"}, exitUsage,
			"--all-contexts and --sasl-service exclude each other: every context names its servers' Kerberos principal in its own sasl block"},
		{"ls with --sasl-canonicalize-host", []string{"ls", "--all-contexts", "--config", kerberized, "--sasl-canonicalize-host=false"}, exitUsage,
			"--all-contexts and --sasl-canonicalize-host exclude each other"},
		{"check with --sasl-server-realm", []string{"check", "--all-contexts", "--config", kerberized, "--sasl-server-realm", "EXAMPLE.COM"}, int(check.Unknown),
			"--all-contexts and --sasl-server-realm exclude each other"},
		{"exporter --contexts with --sasl-service", []string{"exporter", "--contexts", "a", "--config", kerberized, "--sasl-service", "zk"}, exitUsage,
			"--contexts and --sasl-service exclude each other"},
		{"exporter with an unknown context", []string{"exporter", "--contexts", "a,c", "--config", config}, exitUsage, `no context "c" in the config file (there are: a, b)`},
		{"exporter with both", []string{"exporter", "--contexts", "a", "--all-contexts", "--config", config}, exitUsage, "--all-contexts and --contexts exclude each other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d saying %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}
