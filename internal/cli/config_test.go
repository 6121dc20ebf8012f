package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/zkwatch"
)

const testConfig = `
current-context: prod
contexts:
  prod:
    server: zk1:2181,zk2:2181/app
    roots: [/locks]
    read-only: true
    session-timeout: 5s
    auth:
      - {scheme: digest, user: ops, password-env: ZK_PASS}
    tls: {ca: ca.pem, cert: /etc/zk/client.pem, key: /etc/zk/client-key.pem}
  dev:
    server: dev:2181
`

// loadSettings writes config (unless empty) as the user's config file, sets
// env (only those variables), runs a subcommand with args and returns what
// it loads.
func loadSettings(t *testing.T, config string, env map[string]string, args ...string) (settings, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	for _, k := range []string{serverEnv, "ZK_PASS"} {
		t.Setenv(k, env[k])
	}
	if config != "" {
		writeFile(t, filepath.Join(dir, "zklocks", "config.yaml"), config)
	}
	g := &globalFlags{}
	root := &cobra.Command{Use: "zklocks", SilenceErrors: true, SilenceUsage: true}
	g.register(root)
	var got settings
	var err error
	root.AddCommand(&cobra.Command{Use: "probe", RunE: func(*cobra.Command, []string) error {
		got, err = g.load()
		return nil
	}})
	root.SetArgs(append([]string{"probe"}, args...))
	if e := root.Execute(); e != nil {
		t.Fatalf("execute: %v", e)
	}
	return got, err
}

func TestConfigPrecedence(t *testing.T) {
	type want struct {
		context, server, serverFrom string
		roots                       []string
		readOnly                    bool
		timeout, sessionTimeout     time.Duration
		users                       []string // auth users, in order
		authFrom                    string
		ca, cert                    string // "" for none; ca.pem is relative to the config file
	}
	prod := want{context: "prod", server: "zk1:2181,zk2:2181/app", serverFrom: "context prod", roots: []string{"/locks"},
		readOnly: true, timeout: 10 * time.Second, sessionTimeout: 5 * time.Second,
		users: []string{"ops"}, authFrom: "context prod", ca: "ca.pem", cert: "/etc/zk/client.pem"}
	plain := want{server: defaultServer, serverFrom: "default", roots: []string{"/"},
		timeout: 10 * time.Second, sessionTimeout: 10 * time.Second, authFrom: "default"}
	with := func(w want, f func(*want)) want { f(&w); return w }
	for _, tc := range []struct {
		name   string
		config string
		env    map[string]string
		args   []string
		want   want
	}{
		{"no config file", "", nil, nil, plain},
		{"current-context", testConfig, nil, nil, prod},
		{"flag server skips current-context", testConfig, nil, []string{"--server", "x:1"},
			with(plain, func(w *want) { w.server, w.serverFrom = "x:1", "--server" })},
		{"env server skips current-context", testConfig, map[string]string{serverEnv: "e:1"}, nil,
			with(plain, func(w *want) { w.server, w.serverFrom = "e:1", "$ZKLOCKS_SERVER" })},
		{"env server without a config", "", map[string]string{serverEnv: "e:1"}, nil,
			with(plain, func(w *want) { w.server, w.serverFrom = "e:1", "$ZKLOCKS_SERVER" })},
		{"--context beats env", testConfig, map[string]string{serverEnv: "e:1"}, []string{"--context", "dev"},
			with(plain, func(w *want) { w.context, w.server, w.serverFrom = "dev", "dev:2181", "context dev" })},
		{"--server beats --context", testConfig, nil, []string{"--context", "prod", "-s", "x:1"},
			with(prod, func(w *want) { w.server, w.serverFrom = "x:1", "--server" })},
		{"flags beat the context", testConfig, nil,
			[]string{"--read-only=false", "--root", "/a", "--root", "/b", "--timeout", "3s", "--session-timeout", "2s"},
			with(prod, func(w *want) {
				w.readOnly, w.roots, w.timeout, w.sessionTimeout = false, []string{"/a", "/b"}, 3*time.Second, 2*time.Second
			})},
		{"--auth replaces the context's", testConfig, nil, []string{"--auth", "digest:a:pw", "--auth", "digest:b:@f"},
			with(prod, func(w *want) { w.users, w.authFrom = []string{"a", "b"}, "--auth" })},
		{"--tls-ca replaces one file", testConfig, nil, []string{"--tls-ca", "/my/ca.pem"},
			with(prod, func(w *want) { w.ca = "/my/ca.pem" })},
		{"--context \"\" applies none", testConfig, nil, []string{"--context", ""}, plain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := loadSettings(t, tc.config, tc.env, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			var users []string
			for _, c := range s.auth {
				users = append(users, c.user)
			}
			w := tc.want
			if w.ca == "ca.pem" {
				w.ca = filepath.Join(filepath.Dir(s.file.path), "ca.pem")
			}
			got := want{context: s.context, server: s.server, serverFrom: s.source["server"], roots: s.roots,
				readOnly: s.readOnly, timeout: s.timeout, sessionTimeout: s.sessionTimeout,
				users: users, authFrom: s.source["auth"], ca: s.tls.CA, cert: s.tls.Cert}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("got  %+v\nwant %+v", got, w)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"unknown context", testConfig, []string{"--context", "staging"}, `no context "staging"`},
		{"missing --config file", "", []string{"--config", "/nonexistent/zklocks.yaml"}, "/nonexistent/zklocks.yaml"},
		{"unknown field", "contexts: {a: {server: x, passwd: y}}", nil, "field passwd not found"},
		{"missing current-context", "current-context: a\ncontexts: {b: {server: x}}", nil, `current-context "a"`},
		{"context without server", "contexts: {a: {roots: [/]}}", nil, "no server"},
		{"two passwords", "contexts: {a: {server: x, auth: [{user: u, password: p, password-env: E}]}}", nil, "exactly one"},
		{"unknown scheme", "contexts: {a: {server: x, auth: [{scheme: ip, user: u, password: p}]}}", nil, `scheme "ip": not one of digest, sasl`},
		{"bad duration", "contexts: {a: {server: x, timeout: soon}}", nil, "soon"},
		{"relative root", testConfig, []string{"--root", "locks"}, "--root"},
		{"bad context root", "current-context: a\ncontexts: {a: {server: x, roots: [locks/]}}", nil, "context a: root"},
		{"bad server", "", []string{"--server", "h:99999"}, "--server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadSettings(t, tc.config, nil, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestConfigViewMasksPasswords(t *testing.T) {
	const secret = "Literal-S3cret"
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(serverEnv, "")
	t.Setenv("ZK_PASS", "from-env-"+secret)
	writeFile(t, filepath.Join(dir, "zklocks", "config.yaml"), `
current-context: prod
contexts:
  prod:
    server: zk1:2181
    auth:
      - {user: ops, password: `+secret+`}
      - {user: env, password-env: ZK_PASS}
      - {user: file, password-file: pw.txt}
      - {user: unset, password-env: ZK_UNSET_VARIABLE}
      - {scheme: sasl, user: app, password: `+secret+`}
`)
	out, errOut, code := run(t, "config", "view")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"context: prod # current-context",
		"server: zk1:2181 # context prod",
		"password: '****' # plain text in the config file",
		"password-env: ZK_PASS # set",
		"password-file: " + filepath.Join(dir, "zklocks", "pw.txt"),
		"password-env: ZK_UNSET_VARIABLE # not set",
		"scheme: sasl\n    user: app\n    password: '****' # plain text in the config file",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config view lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "plain-text password for ops") {
		t.Errorf("no warning about the plain-text password: %q", errOut)
	}
	out2, errOut2, _ := run(t, "--auth", "sasl:cli:"+secret, "config", "view")
	if !strings.Contains(out2, "scheme: sasl\n    user: cli\n    password: '****'\n") || !strings.Contains(out2, "auth: # --auth") {
		t.Errorf("config view with --auth:\n%s", out2)
	}
	for _, s := range []string{out, errOut, out2, errOut2} {
		if strings.Contains(s, secret) {
			t.Errorf("config view shows a password:\n%s", s)
		}
	}
}

func TestConfigContexts(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(serverEnv, "")
	writeFile(t, filepath.Join(dir, "zklocks", "config.yaml"), testConfig)
	for _, tc := range []struct {
		name    string
		args    []string
		env     string
		current string
		note    string
	}{
		{"current-context", nil, "", "prod", ""},
		{"--context", []string{"--context", "dev"}, "", "dev", ""},
		{"env", nil, "e:1", "", "current-context prod is not in use: $ZKLOCKS_SERVER is set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(serverEnv, tc.env)
			out, errOut, code := run(t, append(tc.args, "config", "contexts")...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 3 || !strings.HasPrefix(lines[0], "CURRENT") {
				t.Fatalf("output:\n%s", out)
			}
			for _, l := range lines[1:] {
				f := strings.Fields(l)
				if marked := f[0] == "*"; marked != (f[len(f)-2] == tc.current) {
					t.Errorf("line %q: marked %v, current is %q", l, marked, tc.current)
				}
			}
			if !strings.Contains(errOut, tc.note) {
				t.Errorf("stderr %q, want %q", errOut, tc.note)
			}
		})
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if out, errOut, code := run(t, "config", "contexts"); code != exitOK || out != "" || !strings.Contains(errOut, "no config file") {
		t.Errorf("without a file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct {
		name, xdg string
		f         func() (string, error)
		want      string
	}{
		{"config from XDG", "/xdg", defaultConfigPath, "/xdg/zklocks/config.yaml"},
		{"config fallback", "", defaultConfigPath, filepath.Join(home, ".config/zklocks/config.yaml")},
		{"config ignores a relative XDG", "rel", defaultConfigPath, filepath.Join(home, ".config/zklocks/config.yaml")},
		{"log from XDG", "/xdg", defaultLogPath, "/xdg/zklocks/zklocks.log"},
		{"log fallback", "", defaultLogPath, filepath.Join(home, ".local/state/zklocks/zklocks.log")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", tc.xdg)
			t.Setenv("XDG_STATE_HOME", tc.xdg)
			got, err := tc.f()
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestTLSFromContext checks that a context's TLS files reach zkwatch.
func TestTLSFromContext(t *testing.T) {
	s, err := loadSettings(t, testConfig, map[string]string{"ZK_PASS": "x"}, "--tls-server-name", "zk.example")
	if err != nil {
		t.Fatal(err)
	}
	want := zkwatch.TLSFiles{CA: filepath.Join(filepath.Dir(s.file.path), "ca.pem"),
		Cert: "/etc/zk/client.pem", Key: "/etc/zk/client-key.pem", ServerName: "zk.example"}
	if s.tls != want {
		t.Errorf("tls = %+v, want %+v", s.tls, want)
	}
	if _, err := os.Stat(want.CA); err == nil {
		t.Fatal("the test's CA file should not exist")
	}
	if _, err := s.options(); err == nil || !strings.Contains(err.Error(), "tls ca") {
		t.Errorf("options() with a missing CA: %v", err)
	}
}

// TestConfigAloneShowsTheView: zklocks config alone prints what config
// view prints, and the view holds the check thresholds check would use,
// each with where it comes from.
func TestConfigAloneShowsTheView(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(serverEnv, "")
	writeFile(t, filepath.Join(dir, "zklocks", "config.yaml"), `
current-context: prod
contexts:
  prod:
    server: zk1:2181
    check: {warn-wait: 30s, crit-waiters: 5, critical: [persistent]}
`)
	alone, errOut, code := run(t, "config")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	view, _, _ := run(t, "config", "view")
	if alone != view {
		t.Fatalf("config alone:\n%s\nconfig view:\n%s", alone, view)
	}
	for _, want := range []string{
		"check: # what zklocks check uses without flags",
		"  warn-wait: 30s # context prod",
		"  crit-waiters: 5 # context prod",
		"  critical: [persistent] # context prod",
		"  warn-held: 5m0s # default",
		"  crit-held: 0s # default, off",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
}
