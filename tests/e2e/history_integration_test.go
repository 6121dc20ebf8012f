package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
)

// metricIs waits until the exporter's /metrics has name{path="…",…} = want.
func metricIs(t *testing.T, addr, name, path string, want int) {
	t.Helper()
	re := regexp.MustCompile(fmt.Sprintf(`(?m)^%s\{path="%s"[^}]*\} (\S+)$`, regexp.QuoteMeta(name), regexp.QuoteMeta(path)))
	zktest.WaitUntil(t, 60*time.Second, func() string {
		body, err := httpGet("http://" + addr + "/metrics")
		if err != nil {
			return err.Error()
		}
		m := re.FindStringSubmatch(body)
		if m == nil || m[1] != fmt.Sprint(want) {
			return fmt.Sprintf("%s{path=%q} = %v, want %d", name, path, m, want)
		}
		return ""
	})
}

// An exporter with its default history watches real Curator contenders
// through an incident: the holder's process is killed, its session
// expires, the next waiter is granted; the exporter is restarted; the
// new holder releases and the last waiter is granted. Then replay,
// show --at and postmortem, reading the exporter's /history, tell the
// incident with the right holders, times and endings across the restart.
func TestIntegrationExporterHistoryIncident(t *testing.T) {
	zks := zktest.Start(t)
	server := zks.Addr()
	const lock = "/pm/orders"

	exp, addr := startExporterWith(t, "last sync", "--server", server)
	holderClient := peers.Start(t, peers.Curator, server)
	waiters := peers.Start(t, peers.Curator, server)
	h := holderClient.Acquire(t, "h", "mutex", lock)
	holderClient.WaitHeld(t, "h", 60*time.Second)
	w1 := waiters.Acquire(t, "w1", "mutex", lock)
	w2 := waiters.Acquire(t, "w2", "mutex", lock)
	metricIs(t, addr, "zklocks_lock_waiters", lock, 2)

	killed := time.Now()
	holderClient.Kill(t)
	waiters.WaitHeld(t, "w1", 90*time.Second)
	granted1 := time.Now()
	metricIs(t, addr, "zklocks_lock_grants_total", lock, 2)

	// The exporter restarts: its history goes on in the same directory.
	exp.stop()
	restarted := time.Now()
	_, addr = startExporterWith(t, "last sync", "--server", server)
	metricIs(t, addr, "zklocks_lock_holders", lock, 1)
	releasing := time.Now()
	waiters.Release(t, "w1")
	waiters.WaitHeld(t, "w2", 60*time.Second)
	released := time.Now()
	metricIs(t, addr, "zklocks_lock_grants_total", lock, 1)

	dirs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "zklocks", "history", "*"+fmt.Sprint(zks.Port())+"*", "history-*.zklocks"))
	if len(dirs) < 2 {
		t.Fatalf("the default history holds %v: want a part per run", dirs)
	}

	// postmortem, as JSON: every holder with its grant and ending.
	out, errOut, code := run(t, "postmortem", lock, "--recording", "http://"+addr, "--since", "10m", "--json")
	if code != 0 {
		t.Fatalf("postmortem: %d %s", code, errOut)
	}
	var st model.Story
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	hex := func(c peers.Contender) string { return fmt.Sprintf("0x%x", c.Session) }
	if len(st.Holds) != 3 {
		t.Fatalf("holds %+v, want h, w1, w2", st.Holds)
	}
	hh, h1, h2 := st.Holds[0], st.Holds[1], st.Holds[2]
	if hh.Session != hex(h) || hh.End != model.EndExpired || hh.Ended.Before(killed) || hh.Ended.After(granted1) {
		t.Errorf("the killed holder's hold: %+v (killed %v, next granted by %v)", hh, killed, granted1)
	}
	// The peer closes w1's session as soon as it has released, so the
	// members may never list the session after its node went: its end is
	// a release or its session's, as the answers tell; when is known.
	if h1.Session != hex(w1) || h1.Start != model.StartSeen || !h1.Granted.Equal(hh.Ended) || h1.End == model.EndOngoing ||
		h1.Ended.Before(releasing) || h1.Ended.After(released) || h1.Held != h1.Ended.Sub(h1.Granted) {
		t.Errorf("w1's hold across the restart: %+v (restarted %v, released by %v)", h1, restarted, released)
	}
	if h2.Session != hex(w2) || h2.Start != model.StartSeen || !h2.Granted.Equal(h1.Ended) || h2.End != model.EndOngoing {
		t.Errorf("w2's hold: %+v", h2)
	}
	var w2wait *model.StoryWait
	for i, w := range st.Waits {
		if w.Session == hex(w2) {
			w2wait = &st.Waits[i]
		}
	}
	if w2wait == nil || w2wait.End != model.EndGranted || !w2wait.Ended.Equal(h2.Granted) || w2wait.Joined.After(killed) {
		t.Errorf("w2's wait, across the restart: %+v", w2wait)
	}
	stopped := false
	for _, c := range st.Connection {
		if strings.Contains(c.What, "recording stopped") && !c.At.After(restarted) {
			stopped = true
		}
	}
	if !stopped {
		t.Errorf("the restart is not among the connection losses: %+v", st.Connection)
	}
	// The text says the same for an incident report.
	out, errOut, code = run(t, "postmortem", lock, "--recording", "http://"+addr, "--since", "10m")
	if code != 0 || !strings.Contains(out, hex(h)+" granted") || !strings.Contains(out, "expired at") || !strings.Contains(out, hex(w2)+" granted") {
		t.Errorf("postmortem text (%d, %s):\n%s", code, errOut, out)
	}

	// show --at: who held at each moment, from the exporter's history.
	for _, tc := range []struct {
		at   time.Time
		want peers.Contender
	}{{killed, h}, {hh.Ended.Add(time.Millisecond), w1}, {releasing, w1}, {time.Now(), w2}} {
		out, errOut, code := run(t, "show", "--recording", "http://"+addr, "--at", tc.at.Format(time.RFC3339Nano), "--json", lock)
		var rep struct {
			Locks []struct {
				Participants []struct {
					Session *string `json:"session"`
					Role    string  `json:"role"`
				} `json:"participants"`
			} `json:"locks"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Locks) != 1 {
			t.Fatalf("show --at %v: %d %s\n%s", tc.at, code, errOut, out)
		}
		holder := ""
		for _, p := range rep.Locks[0].Participants {
			if p.Role == "holder" && p.Session != nil {
				holder = *p.Session
			}
		}
		if holder != hex(tc.want) {
			t.Errorf("show --at %v: holder %s, want %s (%s)\n%s", tc.at, holder, hex(tc.want), tc.want.ID, out)
		}
	}

	// replay of the exporter's URL: the events screen at the end tells
	// the expiry and the grants.
	command := fmt.Sprintf("TERM=xterm-256color %s replay 'http://%s/history?since=10m'", zklocksbin.Path(t), addr)
	s := tmuxscreen.Start(t, 160, 40, command)
	s.WaitText("REPLAY")
	s.Keys("t")
	s.WaitText("Go to a time")
	s.Keys("e", "n", "d", "Enter")
	s.WaitFor("the dialog closed", func(sc string) bool { return !strings.Contains(sc, "Go to a time") })
	s.Keys("3")
	s.WaitFor("the expiry and the grants", func(sc string) bool {
		return lineWith(sc, "expired", h.Node[len(h.Node)-10:]) && lineWith(sc, "granted", w1.Node[len(w1.Node)-10:]) &&
			lineWith(sc, "granted", w2.Node[len(w2.Node)-10:])
	})
}
