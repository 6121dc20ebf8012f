package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model/check"
)

// fleetJSON is the part of ls and check --all-contexts --json these tests
// read.
type fleetJSON struct {
	Status   string `json:"status"`
	Code     int    `json:"code"`
	Summary  string `json:"summary"`
	Clusters []struct {
		Context      string  `json:"context"`
		Server       string  `json:"server"`
		Status       string  `json:"status"`
		State        string  `json:"state"`
		Error        *string `json:"error"`
		Locks        int     `json:"locks"`
		Waiters      int     `json:"waiters"`
		OldestWaitMs int64   `json:"oldest_wait_ms"`
		Worst        *struct {
			Kind, Lock, Status string
		} `json:"worst"`
		Check  *checkFindingsJSON `json:"check"`
		TookMs int64              `json:"took_ms"`
	} `json:"clusters"`
}

// checkFindingsJSON is the part of a cluster's check --json this file
// reads.
type checkFindingsJSON struct {
	Status   string `json:"status"`
	Findings []struct {
		Status string   `json:"status"`
		Lock   string   `json:"lock"`
		Kind   string   `json:"kind"`
		Nodes  []string `json:"nodes"`
	} `json:"findings"`
}

// fleetServers are three throwaway servers as three contexts of a config
// file: "east" with a queue stuck behind a kazoo holder (its context's
// check section makes a 2 s wait critical), "north" with a lock held and
// nobody waiting, "west" with nothing.
type fleetServers struct {
	east, north, west *zktest.Server
	config            string
	stuck             string // the stuck lock, on east
	waiter            peers.Contender
}

func startFleet(t *testing.T) *fleetServers {
	t.Helper()
	f := &fleetServers{east: zktest.Start(t), north: zktest.Start(t), west: zktest.Start(t), stuck: "/locks/stuck-queue"}
	dir := t.TempDir()
	f.config = filepath.Join(dir, "config.yaml")
	writeFile(t, f.config, fmt.Sprintf(`current-context: west
contexts:
  east:
    server: %s
    check: {warn-wait: 1s, crit-wait: 2s}
  north:
    server: %s
  west:
    server: %s
`, f.east.Addr(), f.north.Addr(), f.west.Addr()))

	kazoo := peers.Start(t, peers.Kazoo, f.east.Addr())
	kazoo.Acquire(t, "holder", "lock", f.stuck)
	kazoo.WaitHeld(t, "holder", 30*time.Second)
	f.waiter = kazoo.Acquire(t, "waiter", "lock", f.stuck)
	gozk := peers.Start(t, peers.GoZk, f.north.Addr())
	gozk.Acquire(t, "calm", "lock", "/locks/calm")
	gozk.WaitHeld(t, "calm", 30*time.Second)
	return f
}

// checkFleet runs check --all-contexts --json until cond says nothing is
// wrong with what it printed.
func (f *fleetServers) checkFleet(t *testing.T, cond func(got fleetJSON, code int) string) fleetJSON {
	t.Helper()
	var got fleetJSON
	zktest.WaitUntil(t, 60*time.Second, func() string {
		out, errOut, code := run(t, "check", "--all-contexts", "--json", "--config", f.config, "--timeout", "3s")
		got = fleetJSON{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return fmt.Sprintf("invalid JSON (%v): %s %s", err, out, errOut)
		}
		return cond(got, code)
	})
	return got
}

// Every cluster at once, in check, ls and the fleet screen: the stuck
// queue's cluster comes first, CRITICAL, naming its lock, the others
// follow; enter opens a cluster's locks, esc comes back; a stopped server
// is a line of its own saying it cannot be reached, and the others are
// still judged.
func TestIntegrationFleet(t *testing.T) {
	t.Parallel()
	bin := zklocksbin.Path(t)
	f := startFleet(t)

	got := f.checkFleet(t, func(got fleetJSON, code int) string {
		if code != int(check.Critical) || len(got.Clusters) != 3 || got.Clusters[0].Context != "east" {
			return fmt.Sprintf("exit %d: %+v", code, got)
		}
		return ""
	})
	for _, c := range got.Clusters {
		t.Logf("%s: read in %d ms", c.Context, c.TookMs)
	}
	east := got.Clusters[0]
	if east.Status != "CRITICAL" || east.Worst == nil || east.Worst.Kind != "wait" || east.Worst.Lock != f.stuck ||
		east.Waiters != 1 || east.OldestWaitMs < 2000 || east.Check == nil || len(east.Check.Findings) != 1 ||
		east.Check.Findings[0].Nodes[0] != rel(f.waiter.Node) {
		t.Errorf("east: %+v (check %+v)", east, east.Check)
	}
	for _, c := range got.Clusters[1:] {
		if c.Status != "OK" || c.State != "connected" || c.Error != nil {
			t.Errorf("%s: %+v", c.Context, c)
		}
	}
	if got.Clusters[1].Context != "north" || got.Clusters[1].Locks != 1 || got.Clusters[2].Context != "west" || got.Clusters[2].Locks != 0 {
		t.Errorf("the calm clusters, in order: %+v", got.Clusters[1:])
	}
	if !strings.HasPrefix(got.Summary, "CRITICAL: 3 clusters; 1 critical: east") {
		t.Errorf("summary %q", got.Summary)
	}

	out, _, code := run(t, "check", "--all-contexts", "--config", f.config, "--timeout", "3s")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != int(check.Critical) || len(lines) != 5 ||
		!strings.HasSuffix(lines[0], " | clusters=3;;;0 critical=1;;;0 unknown=0;;;0 warning=0;;;0") ||
		!strings.HasPrefix(lines[1], "CRITICAL east: 1 of 1 lock stuck: "+f.stuck+" wait") ||
		!strings.HasPrefix(lines[2], "OK north: 1 lock, none stuck") || !strings.HasPrefix(lines[3], "OK west: 0 locks") ||
		!regexpMatch(`^\| 'east:read'=1;;;0;1 'east:locks'=1;;;0 'east:waiters'=1;;;0 'east:oldest_wait'=[\d.]+s;;;0 'north:read'=1;;;0;1 `, lines[4]) {
		t.Errorf("check --all-contexts: exit %d:\n%s", code, out)
	}
	out, errOut, code := run(t, "ls", "--all-contexts", "--config", f.config, "--timeout", "3s")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 4 || !strings.HasPrefix(lines[0], "CONTEXT") ||
		!regexpMatch(`^east +CRITICAL +connected +1 +1 +1 +\d+s +wait `+f.stuck+`$`, lines[1]) ||
		!regexpMatch(`^north +OK +connected +1 +1 +0 +- +-$`, lines[2]) {
		t.Errorf("ls --all-contexts: exit %d:\n%s%s", code, out, errOut)
	}

	// The fleet screen, with no cluster open, polling every 2 s.
	command := fmt.Sprintf("TERM=xterm-256color %s --config %s --fleet --fleet-interval 2s --timeout 3s --log-file %s",
		bin, f.config, filepath.Join(t.TempDir(), "zk.log"))
	s := tmuxscreen.Start(t, 120, 40, command)
	s.WaitScreen(60*time.Second, `(?m)^> east +CRITICAL +connected +\d+s ago +1 +1 +\d+s +wait `+f.stuck+`\s*\n +north +OK +connected .*\n +west +OK +connected`)
	s.WaitText("[Fleet]", "3 clusters · 1 critical", "no cluster open")
	// Polls leave no watch behind: west has no client but zklocks'.
	s.WaitScreen(30*time.Second, `west +OK +connected +\d+s ago`)
	if n := zktest.WatchCount(t, f.west.Addr()); n != 0 {
		t.Errorf("west holds %d watches under the fleet screen's polls, want 0", n)
	}
	s.Keys("Enter")
	s.WaitText("⎈ east", f.stuck+"  ", "kazoo-lock")
	s.Keys("Escape")
	s.WaitText("[Fleet]", ">⎈east    CRITICAL")
	s.Keys("j", "Enter")
	s.WaitText("⎈ north", "/locks/calm")
	s.Keys("Escape")
	s.WaitText("[Fleet]", ">⎈north   OK")

	// A cluster gone: its line says so, the others are judged as before.
	f.north.Stop()
	s.WaitScreen(60*time.Second, `(?m)^. east +CRITICAL +connected .*\n.+north +UNKNOWN +unreachable +down \S+ .*connection refused by 127.*\n +west +OK +connected`)
	// Opening it from another cluster: the fleet screen comes back, with no
	// cluster open, saying why.
	s.Keys("g", "Enter")
	s.WaitText("⎈ east", f.stuck+"  ")
	s.Keys("Escape")
	s.WaitText("[Fleet]", ">⎈east")
	s.Keys("j", "Enter")
	s.WaitText("no cluster open", "context north: ")
	s.WaitText("[Fleet]", "east    CRITICAL")
	s.Keys("q")
	s.WaitExit(10 * time.Second)

	got = f.checkFleet(t, func(got fleetJSON, code int) string {
		if code != int(check.Critical) || len(got.Clusters) != 3 || got.Clusters[1].Context != "north" || got.Clusters[1].State != "unreachable" {
			return fmt.Sprintf("exit %d: %+v", code, got)
		}
		return ""
	})
	if c := got.Clusters[0]; c.Context != "east" || c.Status != "CRITICAL" {
		t.Errorf("east with north down: %+v", c)
	}
	if c := got.Clusters[1]; c.Status != "UNKNOWN" || c.Error == nil || !strings.Contains(*c.Error, f.north.Addr()) {
		t.Errorf("north stopped: %+v", c)
	}
	if c := got.Clusters[2]; c.Context != "west" || c.Status != "OK" || c.State != "connected" {
		t.Errorf("west with north down: %+v", c)
	}
	out, errOut, code = run(t, "ls", "--all-contexts", "--config", f.config, "--timeout", "3s")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != exitUnreachable || len(lines) != 4 || !regexpMatch(`^north +UNKNOWN +unreachable +- +- +- +- +\S`, lines[2]) ||
		!regexpMatch(`^west +OK +connected +0 `, lines[3]) || !strings.Contains(errOut, "1 of 3 contexts could not be read") {
		t.Errorf("ls --all-contexts, north stopped: exit %d:\n%s%s", code, out, errOut)
	}

	// One exporter for every cluster: every series of theirs says which,
	// the process's own do not; north, stopped, is down alone.
	_, addr := startExporterWith(t, "east: ok: connected, 1 locks", "--config", f.config, "--all-contexts", "--history", "off", "--timeout", "3s")
	zktest.WaitUntil(t, 30*time.Second, func() string {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return err.Error()
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		for _, want := range []string{
			`zklocks_lock_waiters{cluster="east",path="` + f.stuck + `",recipe="kazoo-lock"} 1`,
			`zklocks_up{cluster="east"} 1`, `zklocks_up{cluster="west"} 1`, `zklocks_locks{cluster="west"} 0`,
			`zklocks_up{cluster="north"} 0`,
		} {
			if !strings.Contains(body, want) {
				return "no " + want + " in:\n" + body
			}
		}
		if !regexpMatch(`(?m)^go_goroutines \d+$`, body) ||
			regexpMatch(`(?m)^zklocks_\w+(\{\})? `, body) {
			return "the process's series with a cluster, or ours without:\n" + body
		}
		return ""
	})
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
