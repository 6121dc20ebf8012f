package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// livenessTimeout is every session's timeout on the test's server. The
// exporter asks the members every 5 s; a frozen holder is silent after a
// third of it (6.7 s with the slack) and expires at 20 s, which leaves
// room for two of its answers in between.
const livenessTimeout = 20 * time.Second

// liveJSON is what show --json says of a contender's liveness.
type liveJSON struct {
	Locks []struct {
		Path         string `json:"path"`
		Participants []struct {
			Role     string  `json:"role"`
			Session  *string `json:"session"`
			Conn     *string `json:"connection"`
			Liveness *string `json:"liveness"`
			SilentMs *int64  `json:"silent_ms"`
		} `json:"participants"`
		Anomalies []struct {
			Kind    string  `json:"kind"`
			Session *string `json:"session"`
		} `json:"anomalies"`
	} `json:"locks"`
	Ended []struct {
		Lock       string  `json:"lock"`
		Session    *string `json:"session"`
		Token      int64   `json:"token"`
		EndedBy    string  `json:"ended_by"`
		NotTold    bool    `json:"not_told"`
		NewHolders []struct {
			Token int64 `json:"token"`
		} `json:"new_holders"`
	} `json:"ended"`
}

func TestIntegrationLivenessFourLetterWords(t *testing.T) {
	t.Parallel()
	testLiveness(t, false)
}

// TestIntegrationLivenessAdminServer: the same on a server as Debian ships
// it, whose whitelist answers srvr alone: connections come from the
// AdminServer.
func TestIntegrationLivenessAdminServer(t *testing.T) {
	t.Parallel()
	testLiveness(t, true)
}

// testLiveness: real kazoo clients in processes of their own hold four
// locks. One holder is frozen (SIGSTOP): it is silent before its session
// expires, then expired, and still not told after SIGCONT. One is killed
// (SIGKILL): disconnected, then expired. One stays alive holding (hung):
// talking, never silent. One releases: released. Each is asserted in the
// watcher's state and event log, show --json (live, and from a recording
// for the endings), check and the exporter.
func testLiveness(t *testing.T, admin bool) {
	opts := []zktest.Option{zktest.WithConfig(fmt.Sprintf("minSessionTimeout=%d", livenessTimeout.Milliseconds()),
		fmt.Sprintf("maxSessionTimeout=%d", livenessTimeout.Milliseconds()))}
	if admin {
		opts = append(opts, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	}
	srv := zktest.Start(t, opts...)
	addr := srv.Addr()
	var flags []string
	var adminServer *words.AdminServer
	if admin {
		flags = []string{"--admin-port", strconv.Itoa(srv.AdminPort())}
		adminServer = &words.AdminServer{Port: srv.AdminPort()}
	}

	frozen, crashed, others := peers.Start(t, peers.Kazoo, addr), peers.Start(t, peers.Kazoo, addr), peers.Start(t, peers.Kazoo, addr)
	fh := frozen.Acquire(t, "f", "lock", "/live/frozen")
	frozen.WaitHeld(t, "f", time.Minute)
	fw := others.Acquire(t, "fw", "lock", "/live/frozen")
	ch := crashed.Acquire(t, "c", "lock", "/live/crashed")
	crashed.WaitHeld(t, "c", time.Minute)
	hh := others.Acquire(t, "h", "lock", "/live/hung")
	others.WaitHeld(t, "h", time.Minute)
	// The peers close their sessions as they release: this holder, a
	// go-zookeeper lock, keeps its session after its release.
	rconn, _, err := zk.Connect([]string{addr}, livenessTimeout, zk.WithLogger(discard{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rconn.Close)
	rlock := zk.NewLock(rconn, "/live/released", zk.WorldACL(zk.PermAll))
	if err := rlock.Lock(); err != nil {
		t.Fatal(err)
	}
	rh := peers.Contender{ID: "r", Session: rconn.SessionID()}

	rec := filepath.Join(t.TempDir(), "live.zklocks")
	w := watchRecorded(t, addr, adminServer, rec)
	exporter := startExporterWith(t, "last sync", append([]string{"--server", addr}, flags...)...)

	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		for path, c := range map[string]peers.Contender{"/live/frozen": fh, "/live/crashed": ch, "/live/hung": hh, "/live/released": rh} {
			if k, ok := linkOf(s, path, c.Session); !ok || k.State != lockcore.LinkConnected {
				return fmt.Sprintf("watcher: %s link %+v (found %v), want connected", path, k, ok)
			}
		}
		return ""
	})

	var fhNode, fwNode lockcore.Participant
	w.Read(func(s *model.State) {
		fhNode, _ = contenderOf(s, "/live/frozen", fh.Session)
		fwNode, _ = contenderOf(s, "/live/frozen", fw.Session)
	})

	// Released: the session outlives its node, as the next answer shows.
	if err := rlock.Unlock(); err != nil {
		t.Fatal(err)
	}
	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		if e, ok := endOf(s, "/live/released", rh.Session); !ok || e.EndedBy != model.EndedByRelease {
			return fmt.Sprintf("watcher: the released hold ended %+v (logged %v), want by release", e, ok)
		}
		return ""
	})

	frozen.Freeze(t)
	crashed.Kill(t)
	frozeAt := time.Now()

	// Silent, before the session expires, everywhere at once: each view
	// is asked until it has said so, and all must have before the node
	// goes. Each is asked in a loop of its own: show and check each run a
	// command, which on a loaded machine takes seconds, and looked at in
	// turn they spaced out the looks at the watcher and the exporter past
	// the time they say it.
	var mu sync.Mutex
	seen := map[string]bool{}
	saw := func(view string) bool { mu.Lock(); defer mu.Unlock(); return seen[view] }
	see := func(view string) { mu.Lock(); seen[view] = true; mu.Unlock() }
	gone := make(chan struct{})
	var looks sync.WaitGroup
	look := func(view string, says func() bool) {
		looks.Go(func() {
			for !saw(view) {
				if says() {
					see(view)
					return
				}
				select {
				case <-gone:
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		})
	}
	look("show", func() bool {
		s := liveShow(t, addr, flags, "/live/frozen", "/live/crashed")
		return liveOf(s, fh.Session) == "silent" && liveOf(s, ch.Session) == "disconnected" && anomalyOf(s, "/live/frozen", "silent-holder")
	})
	look("check", func() bool {
		c, code := liveCheck(t, addr, flags, "/live/frozen", "/live/crashed")
		return code == int(check.Critical) && findingOf(c, "silent-holder", fh.Session) && findingOf(c, "disconnected-holder", ch.Session) &&
			!findingOf(c, "silent-holder", ch.Session)
	})
	look("exporter", func() bool {
		m := scrape(t, exporter)
		return series(m, "zklocks_lock_anomalies", `kind="silent-holder"`, `path="/live/frozen"`) == 1 &&
			series(m, "zklocks_lock_holder_silent_seconds", `path="/live/frozen"`) > 0 &&
			series(m, "zklocks_lock_anomalies", `kind="disconnected-holder"`, `path="/live/crashed"`) == 1
	})
	zktest.WaitUntil(t, livenessTimeout+10*time.Second, func() string {
		var present bool
		w.Read(func(s *model.State) {
			var p lockcore.Participant
			p, present = contenderOf(s, "/live/frozen", fh.Session)
			holder := present && p.Role == lockcore.RoleHolder
			if holder && s.Link(p.Session).Liveness() == lockcore.LiveSilent && lockHas(s.Locks["/live/frozen"], lockcore.AnomalySilentHolder) {
				see("watcher")
			}
			if c, ok := linkOf(s, "/live/crashed", ch.Session); ok && c.Liveness() == lockcore.LiveGone {
				see("watcher: crashed")
			}
		})
		mu.Lock()
		defer mu.Unlock()
		if present && len(seen) < 5 {
			return fmt.Sprintf("seen silent by %v only", seen)
		}
		return ""
	})
	close(gone)
	looks.Wait()
	for _, view := range []string{"watcher", "watcher: crashed", "show", "check", "exporter"} {
		if !saw(view) {
			t.Fatalf("the frozen holder's session expired %v after the freeze before %s said it was silent (seen by %v)",
				time.Since(frozeAt).Round(time.Second), view, seen)
		}
	}

	// Hung: alive and holding. The watcher hears it talk; show and check
	// never call it silent, and check calls a long hold long-held.
	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		if k, _ := linkOf(s, "/live/hung", hh.Session); k.Liveness() != lockcore.LiveTalking {
			return fmt.Sprintf("watcher: the hung holder's liveness %q, want talking", k.Liveness())
		}
		return ""
	})
	if s := liveShow(t, addr, flags, "/live/hung"); liveOf(s, hh.Session) == "silent" || anomalyOf(s, "/live/hung", "silent-holder") {
		t.Errorf("show: the hung holder reads as silent: %+v", s.Locks)
	}
	c, code := liveCheck(t, addr, append(flags, "--warn-held", "1s"), "/live/hung")
	if code != int(check.Warning) || !findingOf(c, "long-held", hh.Session) || findingOf(c, "silent-holder", hh.Session) {
		t.Errorf("check of the hung holder: exit %d, %+v; want a long-held warning and no silent-holder", code, c)
	}
	if m := scrape(t, exporter); series(m, "zklocks_lock_anomalies", `kind="silent-holder"`, `path="/live/hung"`) != 0 {
		t.Errorf("exporter: the hung holder is silent")
	}

	// Expired: the frozen and the crashed holders' nodes went with their
	// sessions; the frozen one's client may believe it holds.
	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		for path, c := range map[string]peers.Contender{"/live/frozen": fh, "/live/crashed": ch} {
			if e, ok := endOf(s, path, c.Session); !ok || e.EndedBy != model.EndedByExpiry {
				return fmt.Sprintf("watcher: %s's hold ended %+v (logged %v), want by expiry", path, e, ok)
			}
		}
		if !untold(s, fh.Session) || !untold(s, ch.Session) {
			return fmt.Sprintf("watcher: untold %+v, want both expired holders", s.Untold)
		}
		return ""
	})
	toldBy := time.Now().Add(time.Minute)
	zktest.WaitUntil(t, time.Minute, func() string {
		m := scrape(t, exporter)
		if m["zklocks_contender_expiries_total"] < 2 || m["zklocks_untold_holders"] < 2 {
			wrong := fmt.Sprintf("exporter: expiries %v, untold %v; want 2 and 2", m["zklocks_contender_expiries_total"], m["zklocks_untold_holders"])
			if time.Now().After(toldBy) {
				// The last look before the test fails: what the exporter
				// told of each ending, from its own history.
				wrong += "; its history says:\n" + exporterEnds(t, exporter, "/live/frozen", "/live/crashed")
			}
			return wrong
		}
		return ""
	})

	// The exporter counted the release as one, and no other.
	if got := series(scrape(t, exporter), "zklocks_lock_releases_total", `path="/live/released"`); got != 1 {
		t.Errorf("exporter: releases of /live/released %v, want 1", got)
	}

	// Woken: its client reconnects with a new session, but nothing tells
	// it lost the lock: it stays untold while the waiter holds.
	frozen.Thaw(t)
	others.WaitHeld(t, "fw", time.Minute)
	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		for id, ci := range s.Clients {
			if id != fh.Session && ci.Asked.After(frozeAt.Add(livenessTimeout)) && strings.HasPrefix(ci.Client, "127.0.0.1:") && !knownSession(id, fh, fw, ch, hh, rh) && s.Conn.Session != id {
				return ""
			}
		}
		return "the thawed client's new session is not listed yet"
	})
	var stillUntold bool
	w.Read(func(s *model.State) { stillUntold = untold(s, fh.Session) })
	if !stillUntold {
		t.Fatal("the thawed holder was forgotten as untold, though it queued nowhere again")
	}
	if m := scrape(t, exporter); m["zklocks_untold_holders"] < 2 {
		t.Errorf("exporter: untold holders %v after the thaw, want still 2", m["zklocks_untold_holders"])
	}

	// show from the recording tells the ending and both tokens.
	w.flush(t)
	out, errOut, code := run(t, "show", "--json", "--recording", rec, "--at", "end", "/live/frozen", "/live/crashed", "/live/released")
	if code != exitOK {
		t.Fatalf("show --recording exited %d: %s", code, errOut)
	}
	var past liveJSON
	if err := json.Unmarshal([]byte(out), &past); err != nil {
		t.Fatalf("show --recording --json: %v\n%s", err, out)
	}
	found := false
	for _, e := range past.Ended {
		for _, c := range []struct {
			session int64
			by      string
		}{{ch.Session, "expiry"}, {rh.Session, "release"}} {
			// Both not told: the crashed holder's session expired; the
			// released one's talked on after its node went, which another
			// client may have deleted.
			if e.Session != nil && *e.Session == lockcore.SessionHex(c.session) && (e.EndedBy != c.by || !e.NotTold) {
				t.Errorf("show --recording: %s's hold ended %+v, want by %s, not told", e.Lock, e, c.by)
			}
		}
		if e.Session != nil && *e.Session == lockcore.SessionHex(fh.Session) {
			found = true
			if e.EndedBy != "expiry" || !e.NotTold || e.Token != fhNode.Token || len(e.NewHolders) != 1 || e.NewHolders[0].Token != fwNode.Token {
				t.Errorf("show --recording: the frozen holder ended %+v; want by expiry, not told, token %d, new holder's token %d", e, fhNode.Token, fwNode.Token)
			}
		}
	}
	if !found || len(past.Ended) != 3 {
		t.Errorf("show --recording: endings %+v, want the frozen, crashed and released holders'", past.Ended)
	}
}

// discard drops go-zookeeper's log lines.
type discard struct{}

func (discard) Printf(string, ...any) {}

// recordedWatch is a watcher's events applied to a model.State and
// recorded to a file.
type recordedWatch struct {
	*watchtest.Feed
	rec *recording.Writer
}

func watchRecorded(t *testing.T, connect string, admin *words.AdminServer, file string) *recordedWatch {
	t.Helper()
	return watchRecordedRoot(t, connect, admin, file, "/live")
}

// watchRecordedRoot is watchRecorded of the locks under root.
func watchRecordedRoot(t *testing.T, connect string, admin *words.AdminServer, file, root string) *recordedWatch {
	t.Helper()
	conn := watchtest.Dial(t, connect, zkwatch.Options{Admin: admin})
	rec, err := recording.Create(file, recording.Options{Header: recording.Header{Server: connect}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	watcher := zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{root}, EnrichEvery: time.Second})
	w := &recordedWatch{Feed: watchtest.Drain(recording.Tee(watcher.Events(), rec)), rec: rec}
	t.Cleanup(func() { cancel(); <-w.Done(); rec.Close() })
	return w
}

func (w *recordedWatch) flush(t *testing.T) {
	t.Helper()
	if err := w.rec.Flush(); err != nil {
		t.Fatal(err)
	}
}

// endOf is the last logged ending of session's node in lock.
func endOf(s *model.State, lock string, session int64) (model.HistoryEntry, bool) {
	for i := len(s.History) - 1; i >= 0; i-- {
		if h := s.History[i]; h.Lock == lock && h.Session == session && (h.Change == model.Released || h.Change == model.Left) {
			return h, true
		}
	}
	return model.HistoryEntry{}, false
}

func untold(s *model.State, session int64) bool {
	for _, u := range s.Untold {
		if u.Session == session {
			return true
		}
	}
	return false
}

func knownSession(id int64, cs ...peers.Contender) bool {
	for _, c := range cs {
		if c.Session == id {
			return true
		}
	}
	return false
}

func lockHas(l *lockcore.Lock, k lockcore.AnomalyKind) bool {
	if l == nil {
		return false
	}
	for _, a := range l.Anomalies {
		if a.Kind == k {
			return true
		}
	}
	return false
}

func liveShow(t *testing.T, addr string, flags []string, paths ...string) liveJSON {
	t.Helper()
	args := append(append([]string{"show", "--json", "--server", addr}, flags...), paths...)
	out, errOut, code := run(t, args...)
	if code != exitOK {
		t.Fatalf("show exited %d: %s", code, errOut)
	}
	var s liveJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	return s
}

func liveOf(s liveJSON, session int64) string {
	for _, l := range s.Locks {
		for _, p := range l.Participants {
			if p.Session != nil && *p.Session == lockcore.SessionHex(session) && p.Liveness != nil {
				return *p.Liveness
			}
		}
	}
	return ""
}

func anomalyOf(s liveJSON, lock, kind string) bool {
	for _, l := range s.Locks {
		for _, a := range l.Anomalies {
			if l.Path == lock && a.Kind == kind {
				return true
			}
		}
	}
	return false
}

func liveCheck(t *testing.T, addr string, flags []string, paths ...string) (checkWaitJSON, int) {
	t.Helper()
	args := append(append([]string{"check", "--json", "--server", addr}, flags...), paths...)
	out, errOut, code := run(t, args...)
	var c checkWaitJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("check --json: %v\n%s %s", err, out, errOut)
	}
	return c, code
}

func findingOf(c checkWaitJSON, kind string, session int64) bool {
	for _, f := range c.Findings {
		if f.Kind == kind && f.Session != nil && *f.Session == lockcore.SessionHex(session) {
			return true
		}
	}
	return false
}

// scrape reads the exporter's metrics: each series, named with its labels
// sorted as the exporter writes them, to its value.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		line := lines.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// series is the sum of the values of name's series whose labels include
// every one of labels.
func series(m map[string]float64, name string, labels ...string) float64 {
	sum := 0.0
	for k, v := range m {
		rest, ok := strings.CutPrefix(k, name+"{")
		if !ok {
			continue
		}
		all := true
		for _, l := range labels {
			all = all && strings.Contains(rest, l)
		}
		if all {
			sum += v
		}
	}
	return sum
}

// exporterEnds is how the exporter's own history tells the holds of
// locks ending (postmortem over its /history), for a failure's message:
// which ending it told otherwise, and from what.
func exporterEnds(t *testing.T, exporter string, locks ...string) string {
	t.Helper()
	var b strings.Builder
	for _, lock := range locks {
		var out, errOut bytes.Buffer
		code := execute(context.Background(), "test", []string{"postmortem", lock, "--recording", "http://" + exporter}, strings.NewReader(""), &out, &errOut)
		fmt.Fprintf(&b, "postmortem %s (exit %d):\n%s%s", lock, code, out.String(), errOut.String())
	}
	return b.String()
}
