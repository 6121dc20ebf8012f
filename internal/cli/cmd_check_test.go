package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/check"
)

func TestCheckUnknownExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"check", "--bogus"}, "UNKNOWN: unknown flag: --bogus"},
		{"bad kind", []string{"check", "--critical", "stuck", "--server", "127.0.0.1:1"}, `UNKNOWN: critical kinds: anomaly kind must be`},
		{"crit under warn", []string{"check", "--warn-held", "1h", "--crit-held", "1m", "--server", "127.0.0.1:1"}, "UNKNOWN: --crit-held 1m0s is below --warn-held 1h0m0s"},
		{"crit wait under warn", []string{"check", "--warn-wait", "1h", "--crit-wait", "1m", "--server", "127.0.0.1:1"}, "UNKNOWN: --crit-wait 1m0s is below --warn-wait 1h0m0s"},
		{"bad path", []string{"check", "locks"}, "UNKNOWN: "},
		{"bad global flag", []string{"check", "--timeout", "-1s"}, "UNKNOWN: --timeout must be positive"},
		{"unreachable", []string{"check", "--server", "127.0.0.1:1", "--timeout", "300ms"}, "UNKNOWN: zookeeper unreachable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, code := run(t, tc.args...)
			if code != int(check.Unknown) {
				t.Errorf("exit %d, want 3 (UNKNOWN)", code)
			}
			if !strings.HasPrefix(out, tc.want) || strings.Count(out, "\n") != 1 {
				t.Errorf("stdout %q, want one line starting %q", out, tc.want)
			}
		})
	}
}

func TestCheckHelpDocumentsExitCodes(t *testing.T) {
	out, _, code := run(t, "check", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"monitoring-plugin convention", "0   OK", "1   WARNING", "2   CRITICAL", "3   UNKNOWN"} {
		if !strings.Contains(out, want) {
			t.Errorf("check --help does not say %q", want)
		}
	}
}

const checkConfigYAML = `
current-context: prod
contexts:
  prod:
    server: zk1:2181
    check:
      warn-held: 10m
      crit-held: 2h
      crit-waiters: 50
      critical: [wait-cycle, persistent]
      warning: []
`

// checkThresholds runs check's flag parsing with config as the config file
// and returns the thresholds it would judge with.
func checkThresholds(t *testing.T, config string, args ...string) (check.Thresholds, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(serverEnv, "")
	if config != "" {
		writeFile(t, filepath.Join(dir, "zklocks", "config.yaml"), config)
	}
	g := &globalFlags{}
	root := &cobra.Command{Use: "zklocks", SilenceErrors: true, SilenceUsage: true}
	g.register(root)
	cmd := newCheckCommand(g)
	var th check.Thresholds
	var err error
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		s, lerr := g.load()
		if lerr != nil {
			err = lerr
			return nil
		}
		f := cmdFlags(cmd)
		th, err = f.thresholds(cmd, s)
		return nil
	}
	root.AddCommand(cmd)
	root.SetArgs(append([]string{"check"}, args...))
	if e := root.Execute(); e != nil {
		t.Fatalf("execute: %v", e)
	}
	return th, err
}

// cmdFlags reads check's flags back from the parsed command.
func cmdFlags(cmd *cobra.Command) *checkFlags {
	fl := cmd.Flags()
	f := &checkFlags{}
	f.warnHeld, _ = fl.GetDuration("warn-held")
	f.critHeld, _ = fl.GetDuration("crit-held")
	f.warnWaiters, _ = fl.GetInt("warn-waiters")
	f.critWaiters, _ = fl.GetInt("crit-waiters")
	f.warnWait, _ = fl.GetDuration("warn-wait")
	f.critWait, _ = fl.GetDuration("crit-wait")
	f.critical, _ = fl.GetStringSlice("critical")
	f.warning, _ = fl.GetStringSlice("warning")
	return f
}

func TestCheckThresholdPrecedence(t *testing.T) {
	th, err := checkThresholds(t, "")
	if err != nil {
		t.Fatal(err)
	}
	def := check.DefaultThresholds()
	if th.WarnHeld != def.WarnHeld || th.CritHeld != 0 || !slices.Equal(th.Critical, def.Critical) || !slices.Equal(th.Warning, def.Warning) {
		t.Errorf("no config, no flags: %+v, want the defaults %+v", th, def)
	}

	th, err = checkThresholds(t, checkConfigYAML)
	if err != nil {
		t.Fatal(err)
	}
	want := check.Thresholds{WarnHeld: 10 * time.Minute, CritHeld: 2 * time.Hour, CritWaiters: 50,
		Critical: []lockcore.AnomalyKind{lockcore.AnomalyWaitCycle, lockcore.AnomalyPersistent}}
	if th.WarnHeld != want.WarnHeld || th.CritHeld != want.CritHeld || th.CritWaiters != 50 || th.WarnWaiters != 0 ||
		!slices.Equal(th.Critical, want.Critical) || len(th.Warning) != 0 {
		t.Errorf("from the context: %+v, want %+v", th, want)
	}

	th, err = checkThresholds(t, checkConfigYAML, "--crit-held", "3h", "--warning", "herd", "--warn-waiters", "5")
	if err != nil {
		t.Fatal(err)
	}
	if th.CritHeld != 3*time.Hour || th.WarnHeld != 10*time.Minute || th.WarnWaiters != 5 ||
		!slices.Equal(th.Warning, []lockcore.AnomalyKind{lockcore.AnomalyHerd}) {
		t.Errorf("flags over the context: %+v", th)
	}

	th, err = checkThresholds(t, "", "--critical", "")
	if err != nil || len(th.Critical) != 0 {
		t.Errorf("--critical \"\" means none: %v %v", th.Critical, err)
	}

	bad := strings.Replace(checkConfigYAML, "persistent]", "stuck]", 1)
	if _, err := checkThresholds(t, bad); err == nil || !strings.Contains(err.Error(), "check") {
		t.Errorf("a bad kind in the config must be refused naming the section: %v", err)
	}
}

// Under --json every UNKNOWN is JSON, even one from flags that did not
// parse, wherever --json stands.
func TestCheckUnknownIsJSONUnderJSON(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--json", "--bogus"},
		{"check", "--bogus", "--json"},
		{"check", "--json", "--warn-held", "1h", "--crit-held", "1m", "--server", "127.0.0.1:1"},
		{"check", "--json", "--server", "127.0.0.1:1", "--timeout", "300ms"},
		{"check", "--json", "locks"},
	} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			out, _, code := run(t, args...)
			var got struct {
				Status string   `json:"status"`
				Code   int      `json:"code"`
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout is not JSON (%v): %q", err, out)
			}
			if code != int(check.Unknown) || got.Status != "UNKNOWN" || got.Code != 3 || len(got.Errors) != 1 {
				t.Errorf("exit %d, %+v", code, got)
			}
		})
	}
}

// --crit-held (or --crit-wait) alone works: the default warning gives way
// below it, and one set in the config or as a flag is kept (and checked).
func TestCheckCritHeldAlone(t *testing.T) {
	th, err := checkThresholds(t, "", "--crit-held", "2m")
	if err != nil || th.CritHeld != 2*time.Minute || th.WarnHeld != 2*time.Minute {
		t.Errorf("--crit-held 2m alone: %+v %v", th, err)
	}
	th, err = checkThresholds(t, "", "--crit-held", "1h")
	if err != nil || th.WarnHeld != check.DefaultThresholds().WarnHeld {
		t.Errorf("--crit-held 1h keeps the default --warn-held: %+v %v", th, err)
	}
	if _, err := checkThresholds(t, "", "--warn-held", "5m", "--crit-held", "2m"); err == nil {
		t.Errorf("an explicit --warn-held above --crit-held must still be refused")
	}
	th, err = checkThresholds(t, "", "--crit-wait", "1s")
	if err != nil || th.CritWait != time.Second || th.WarnWait != time.Second {
		t.Errorf("--crit-wait 1s alone lowers the default --warn-wait to it: %+v %v", th, err)
	}
	th, err = checkThresholds(t, "", "--crit-wait", "10h")
	if err != nil || th.WarnWait != check.DefaultThresholds().WarnWait {
		t.Errorf("--crit-wait 10h keeps the default --warn-wait: %+v %v", th, err)
	}
	th, err = checkThresholds(t, checkConfigYAML, "--warn-wait", "5m", "--crit-wait", "15m")
	if err != nil || th.WarnWait != 5*time.Minute || th.CritWait != 15*time.Minute {
		t.Errorf("wait flags: %+v %v", th, err)
	}
	th, err = checkThresholds(t, strings.Replace(checkConfigYAML, "crit-waiters: 50", "crit-waiters: 50\n      warn-wait: 3m", 1))
	if err != nil || th.WarnWait != 3*time.Minute {
		t.Errorf("warn-wait from the context: %+v %v", th, err)
	}
}
