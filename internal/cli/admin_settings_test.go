package cli

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const adminConfig = `
current-context: prod
contexts:
  prod:
    server: zk1:2181
    admin: {port: "9090", scheme: https, ca: admin-ca.pem}
`

// TestAdminSettings: each AdminServer setting comes from its flag, else
// the context, else $ZKLOCKS_ADMIN_*, else the default, and says so.
func TestAdminSettings(t *testing.T) {
	type want struct {
		port, scheme, portFrom string
		ca                     string // "admin-ca.pem" is relative to the config file
		skip                   bool
	}
	for _, tc := range []struct {
		name   string
		config string
		env    map[string]string
		args   []string
		want   want
	}{
		{"defaults", "", nil, nil, want{portFrom: "default"}},
		{"environment", "", map[string]string{adminPortEnv: "8081", adminSchemeEnv: "https", adminSkipEnv: "true"}, nil,
			want{port: "8081", scheme: "https", portFrom: "$" + adminPortEnv, skip: true}},
		{"context beats environment", adminConfig, map[string]string{adminPortEnv: "8081"}, nil,
			want{port: "9090", scheme: "https", portFrom: "context prod", ca: "admin-ca.pem"}},
		{"flags beat the context", adminConfig, nil, []string{"--admin-port", "off", "--admin-scheme", "http", "--admin-insecure-skip-verify"},
			want{port: "off", scheme: "http", portFrom: "--admin-port", ca: "admin-ca.pem", skip: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{adminPortEnv, adminSchemeEnv, adminCAEnv, adminSkipEnv} {
				t.Setenv(k, tc.env[k])
			}
			s, err := loadSettings(t, tc.config, nil, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if w.ca != "" {
				w.ca = filepath.Join(filepath.Dir(s.file.path), w.ca)
			}
			got := want{port: s.admin.Port, scheme: s.admin.Scheme, portFrom: s.source["admin.port"], ca: s.admin.CA, skip: *s.admin.SkipVerify}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("got  %+v\nwant %+v", got, w)
			}
		})
	}
}

func TestAdminSettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--admin-port", "http"}, "--admin-port: admin port"},
		{[]string{"--admin-port", "zk1=8080"}, "member must be host:port"},
		{[]string{"--admin-scheme", "ftp"}, "want http or https"},
	} {
		_, err := loadSettings(t, "", nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

// TestAdminServerOption: the settings become zkwatch's: ports by member,
// HTTPS with the CA read, or off.
func TestAdminServerOption(t *testing.T) {
	s := settings{admin: adminFlags{Port: "9090,zk2:2181=9091", Scheme: "https", SkipVerify: new(bool)}}
	a, err := s.adminServer()
	if err != nil {
		t.Fatal(err)
	}
	if a.URL("zk1:2181", "dump") != "https://zk1:9090/commands/dump" || a.URL("zk2:2181", "dump") != "https://zk2:9091/commands/dump" || a.TLS == nil {
		t.Errorf("admin %+v", a)
	}
	s.admin.CA = filepath.Join(t.TempDir(), "missing.pem")
	if _, err := s.adminServer(); err == nil || !strings.Contains(err.Error(), "admin ca") {
		t.Errorf("a missing CA: %v", err)
	}
	if a, _ := (settings{admin: adminFlags{Port: "off"}}).adminServer(); a.Enabled() {
		t.Error("--admin-port off still asks")
	}
}
