package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// promInstallHint is the command that provides Prometheus and promtool.
const promInstallHint = "apt-get install -y prometheus (or make deps)"

// rulesDir is contrib/prometheus, at the module's root, as an absolute
// path: go test runs a package's tests in its directory. (Not found
// through runtime.Caller, whose file is a module path under -trimpath.)
func rulesDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "contrib", "prometheus"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func tool(t *testing.T, name string) string {
	t.Helper()
	p := "/usr/bin/" + name
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: %s", p, promInstallHint)
	}
	return p
}

func TestIntegrationPrometheusRules(t *testing.T) {
	t.Parallel()
	promtool := tool(t, "promtool")
	dir := rulesDir(t)
	for _, args := range [][]string{{"check", "rules", "zklocks-rules.yml"}, {"test", "rules", "zklocks-rules.test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// startExporter runs `zklocks exporter` in-process on a free port until
// the test ends, and returns its address; the test fails if it does not
// end with code 0 when its context does (SIGTERM's path).
func startExporter(t *testing.T, server string) string {
	t.Helper()
	return startExporterWith(t, "last sync", "--server", server)
}

// startExporterWith is startExporter with the exporter's arguments given,
// waiting until /healthz says synced.
func startExporterWith(t *testing.T, synced string, args ...string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", zktest.FreePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	var errOut zktest.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, "test", append([]string{"exporter", "--listen", addr}, args...), strings.NewReader(""), io.Discard, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exporter ended with %d: %s", code, errOut.String())
		}
	})
	zktest.WaitUntil(t, 30*time.Second, func() string {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return fmt.Sprintf("exporter does not answer: %v (%s)", err, errOut.String())
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), synced) {
			return "exporter has not synced: " + string(body)
		}
		return ""
	})
	return addr
}

// startPrometheus runs a real Prometheus scraping target every second with
// the shipped rules loaded, until the test ends, and returns its base URL.
func startPrometheus(t *testing.T, target string) string {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [%q]
scrape_configs:
  - job_name: zklocks
    static_configs: [{targets: [%q]}]
`, filepath.Join(rulesDir(t), "zklocks-rules.yml"), target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	listen := fmt.Sprintf("127.0.0.1:%d", zktest.FreePort(t))
	var log zktest.SyncBuffer
	cmd := exec.Command(tool(t, "prometheus"), "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+listen)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus log:\n%s", log.String())
		}
	})
	base := "http://" + listen
	zktest.WaitUntil(t, 60*time.Second, func() string {
		resp, err := http.Get(base + "/-/ready")
		if err != nil {
			return fmt.Sprintf("prometheus is not ready: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Sprintf("prometheus is not ready: %s", resp.Status)
		}
		return ""
	})
	return base
}

// promQuery asks Prometheus for an instant vector and returns its values
// by the series' path label ("" when it has none).
func promQuery(t *testing.T, base, query string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Status != "success" {
		t.Fatalf("query %s: %v %s", query, err, r.Error)
	}
	out := map[string]float64{}
	for _, s := range r.Data.Result {
		v, _ := strconv.ParseFloat(fmt.Sprint(s.Value[1]), 64)
		out[s.Metric["path"]] = v
	}
	return out
}

// promAgrees waits until every query's value at path is want.
func promAgrees(t *testing.T, base, path string, want map[string]float64) {
	t.Helper()
	zktest.WaitUntil(t, 60*time.Second, func() string {
		for q, w := range want {
			got, ok := promQuery(t, base, q)[path]
			if !ok || got != w {
				return fmt.Sprintf("prometheus says %s for %s = %v (present %v), the clients say %v", q, path, got, ok, w)
			}
		}
		return ""
	})
}

func TestIntegrationExporterPrometheus(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()
	exporterAddr := startExporter(t, server)
	prom := startPrometheus(t, exporterAddr)
	curator := peers.Start(t, peers.Curator, server)
	kazoo := peers.Start(t, peers.Kazoo, server)

	// Curator: one holds, two queue. kazoo: one holds, one queues.
	for _, id := range []string{"c0", "c1", "c2"} {
		curator.Acquire(t, id, "mutex", "/e2e/curator")
	}
	curator.WaitHeld(t, "c0", 30*time.Second)
	kazoo.Acquire(t, "k0", "lock", "/e2e/kazoo")
	kazoo.WaitHeld(t, "k0", 30*time.Second)
	kazoo.Acquire(t, "k1", "lock", "/e2e/kazoo")
	promAgrees(t, prom, "/e2e/curator", map[string]float64{
		`zklocks_lock_holders{recipe="curator-mutex"}`: 1, `zklocks_lock_waiters{recipe="curator-mutex"}`: 2})
	promAgrees(t, prom, "/e2e/kazoo", map[string]float64{
		`zklocks_lock_holders{recipe="kazoo-lock"}`: 1, `zklocks_lock_waiters{recipe="kazoo-lock"}`: 1})
	// Each holder is named with its client and the member it is
	// connected to.
	holders := fmt.Sprintf(`count by (path) (zklocks_lock_holder_info{client=~"127\\.0\\.0\\.1:[0-9]+",member=%q})`, server)
	promAgrees(t, prom, "/e2e/curator", map[string]float64{holders: 1})
	promAgrees(t, prom, "/e2e/kazoo", map[string]float64{holders: 1})
	if up := promQuery(t, prom, "zklocks_up")[""]; up != 1 {
		t.Errorf("zklocks_up = %v", up)
	}

	// Releases hand the locks on: each next client says it holds, and
	// Prometheus counts the grant and the release.
	curator.Release(t, "c0")
	curator.WaitHeld(t, "c1", 30*time.Second)
	kazoo.Release(t, "k0")
	kazoo.WaitHeld(t, "k1", 30*time.Second)
	promAgrees(t, prom, "/e2e/curator", map[string]float64{
		"zklocks_lock_holders": 1, "zklocks_lock_waiters": 1, "zklocks_lock_grants_total": 2, "zklocks_lock_releases_total": 1})
	promAgrees(t, prom, "/e2e/kazoo", map[string]float64{
		"zklocks_lock_holders": 1, "zklocks_lock_waiters": 0, "zklocks_lock_grants_total": 2, "zklocks_lock_releases_total": 1})
	// Every grant was seen from its join; c0 and k0 were seen from grant
	// to release.
	promAgrees(t, prom, "", map[string]float64{
		`sum(zklocks_wait_seconds_count)`: 4, `sum(zklocks_hold_seconds_count)`: 2, "zklocks_folded_locks": 0})
	// c2 still waits, from its node's creation; nobody waits on kazoo.
	promAgrees(t, prom, "/e2e/curator", map[string]float64{`zklocks_lock_oldest_wait_seconds > bool 0`: 1})
	promAgrees(t, prom, "/e2e/kazoo", map[string]float64{`zklocks_lock_oldest_wait_seconds`: 0})

	// The shipped rules are loaded, and no lock alert fires on healthy locks.
	resp, err := http.Get(prom + "/api/v1/rules")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, name := range []string{"ZklocksExporterDown", "ZklocksWaitCycle", "ZklocksWaitersNoProgress", "ZklocksWaiterStuck"} {
		if !bytes.Contains(body, []byte(`"name":"`+name+`"`)) {
			t.Errorf("Prometheus has not loaded rule %s: %s", name, body)
		}
	}
	if firing := promQuery(t, prom, `ALERTS{alertstate="firing"}`); len(firing) > 0 {
		t.Errorf("alerts firing on healthy locks: %v", firing)
	}
}
