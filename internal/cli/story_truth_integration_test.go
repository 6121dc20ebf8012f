package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// postmortemOf is zklocks postmortem --json of lock from src.
func postmortemOf(t *testing.T, src, lock string, extra ...string) model.Story {
	t.Helper()
	out, errOut, code := run(t, append([]string{"postmortem", "--json", "--recording", src, lock}, extra...)...)
	if code != exitOK {
		t.Fatalf("postmortem exited %d: %s", code, errOut)
	}
	var st model.Story
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("postmortem --json: %v\n%s", err, out)
	}
	return st
}

func holdOfSession(st model.Story, session int64) (model.StoryHold, bool) {
	for _, h := range st.Holds {
		if h.Session == lockcore.SessionHex(session) {
			return h, true
		}
	}
	return model.StoryHold{}, false
}

// A Curator holder force-released from the command line: an exporter on
// the same host, following its audit log, tells the hold forced with the
// CLI's line; one on another host (no audit log of it) tells it released
// or forced, and its Curator client, which still believes it holds and
// whose session talks on, not told.
func TestIntegrationForceReleaseFromTheCLIToldByTheExporters(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	addr := srv.Addr()
	curator := peers.Start(t, peers.Curator, addr)
	holder := curator.Acquire(t, "h", "mutex", "/fr/orders")
	curator.WaitHeld(t, "h", time.Minute)

	dir := t.TempDir()
	audit := filepath.Join(dir, "audit.log")
	here := startExporterWith(t, "last sync", "--server", addr, "--root", "/fr", "--history", filepath.Join(dir, "here"), "--audit-log", audit)
	there := startExporterWith(t, "last sync", "--server", addr, "--root", "/fr", "--history", filepath.Join(dir, "there"),
		"--audit-log", filepath.Join(dir, "other-host", "audit.log"))
	for _, exp := range []string{here, there} {
		zktest.WaitUntil(t, time.Minute, func() string {
			if got := series(scrape(t, exp), "zklocks_lock_holders", `path="/fr/orders"`); got != 1 {
				return fmt.Sprintf("exporter %s: holders of /fr/orders %v", exp, got)
			}
			return ""
		})
	}

	if _, errOut, code := run(t, "release", holder.Node, "--force", "--yes", "--server", addr, "--audit-log", audit); code != exitOK {
		t.Fatalf("release exited %d: %s", code, errOut)
	}
	if !curator.Held("h") {
		t.Fatal("the Curator client was told it lost the lock: the test shows nothing")
	}

	zktest.WaitUntil(t, time.Minute, func() string {
		h, ok := holdOfSession(postmortemOf(t, "http://"+here, "/fr/orders"), holder.Session)
		if !ok || h.End != model.EndForced || !strings.Contains(h.Audit, `"via":"cli"`) || !strings.Contains(h.Audit, `"action":"force-release"`) {
			return fmt.Sprintf("the exporter on the same host tells the hold %+v (found %v), want forced with the CLI's line", h, ok)
		}
		return ""
	})
	zktest.WaitUntil(t, time.Minute, func() string {
		h, ok := holdOfSession(postmortemOf(t, "http://"+there, "/fr/orders"), holder.Session)
		if !ok || h.End != model.EndReleasedOrForced || h.Audit != "" {
			return fmt.Sprintf("the exporter on another host tells the hold %+v (found %v), want %s", h, ok, model.EndReleasedOrForced)
		}
		out, errOut, code := run(t, "show", "--json", "--recording", "http://"+there, "--at", "end", "/fr/orders")
		if code != exitOK {
			return fmt.Sprintf("show --recording exited %d: %s", code, errOut)
		}
		var past liveJSON
		if err := json.Unmarshal([]byte(out), &past); err != nil {
			t.Fatalf("show --json: %v\n%s", err, out)
		}
		for _, e := range past.Ended {
			if e.Session != nil && *e.Session == lockcore.SessionHex(holder.Session) && e.EndedBy == string(model.EndedByRelease) && e.NotTold {
				return ""
			}
		}
		return fmt.Sprintf("show --recording of the other host's exporter: endings %+v, want the Curator holder's not told", past.Ended)
	})
	// After the fact, the postmortem of the other host's history reads the
	// CLI's audit log and tells the same.
	h, ok := holdOfSession(postmortemOf(t, "http://"+there, "/fr/orders", "--audit-log", audit), holder.Session)
	if !ok || h.End != model.EndForced || !strings.Contains(h.Audit, `"via":"cli"`) {
		t.Errorf("postmortem --audit-log tells the hold %+v (found %v), want forced with the CLI's line", h, ok)
	}
}

// A kazoo holder frozen (SIGSTOP) until its session expires, and one
// killed: the postmortem of an exporter's history lists the silent-holder
// and the disconnected-holder, from when each arose to when it cleared,
// and the frozen holder's frozen stretch in its hold.
func TestIntegrationPostmortemTellsAFrozenHolder(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t, zktest.WithConfig(fmt.Sprintf("minSessionTimeout=%d", livenessTimeout.Milliseconds()),
		fmt.Sprintf("maxSessionTimeout=%d", livenessTimeout.Milliseconds())))
	addr := srv.Addr()
	frozen, crashed, others := peers.Start(t, peers.Kazoo, addr), peers.Start(t, peers.Kazoo, addr), peers.Start(t, peers.Kazoo, addr)
	fh := frozen.Acquire(t, "f", "lock", "/pm/frozen")
	frozen.WaitHeld(t, "f", time.Minute)
	others.Acquire(t, "fw", "lock", "/pm/frozen")
	ch := crashed.Acquire(t, "c", "lock", "/pm/crashed")
	crashed.WaitHeld(t, "c", time.Minute)
	exp := startExporterWith(t, "last sync", "--server", addr, "--root", "/pm", "--history", filepath.Join(t.TempDir(), "history"))
	zktest.WaitUntil(t, time.Minute, func() string {
		m := scrape(t, exp)
		if series(m, "zklocks_lock_holders", `path="/pm/frozen"`) != 1 || series(m, "zklocks_lock_holders", `path="/pm/crashed"`) != 1 {
			return "the exporter does not see both holders yet"
		}
		return ""
	})

	frozen.Freeze(t)
	crashed.Kill(t)
	// The exporter sees both, then the frozen session expires and the
	// waiter holds.
	seen := map[string]bool{}
	zktest.WaitUntil(t, livenessTimeout+30*time.Second, func() string {
		m := scrape(t, exp)
		if series(m, "zklocks_lock_anomalies", `kind="silent-holder"`, `path="/pm/frozen"`) == 1 {
			seen["silent"] = true
		}
		if series(m, "zklocks_lock_anomalies", `kind="disconnected-holder"`, `path="/pm/crashed"`) == 1 {
			seen["disconnected"] = true
		}
		if len(seen) < 2 {
			return fmt.Sprintf("the exporter saw %v", seen)
		}
		return ""
	})
	others.WaitHeld(t, "fw", time.Minute)

	zktest.WaitUntil(t, time.Minute, func() string {
		st := postmortemOf(t, "http://"+exp, "/pm/frozen")
		var silent *model.StoryAnomaly
		for i, a := range st.Anomalies {
			if a.Kind == lockcore.AnomalySilentHolder && a.Session == lockcore.SessionHex(fh.Session) {
				silent = &st.Anomalies[i]
			}
		}
		h, ok := holdOfSession(st, fh.Session)
		switch {
		case silent == nil:
			return fmt.Sprintf("postmortem of /pm/frozen: anomalies %+v, want its silent-holder", st.Anomalies)
		case silent.Cleared.IsZero() || !ok || h.Ended.IsZero() || silent.Cleared.Before(silent.Arose):
			return fmt.Sprintf("the silent-holder %+v, the hold %+v: want it cleared as the hold ended", silent, h)
		case len(h.Frozen) != 1 || h.Frozen[0].From.After(silent.Arose) || !h.Frozen[0].Woke.IsZero() || h.End != model.EndExpired:
			return fmt.Sprintf("the frozen hold %+v: want one frozen stretch from before the anomaly to its expiry", h)
		}
		return ""
	})
	st := postmortemOf(t, "http://"+exp, "/pm/crashed")
	found := false
	for _, a := range st.Anomalies {
		found = found || (a.Kind == lockcore.AnomalyDisconnectedHolder && a.Session == lockcore.SessionHex(ch.Session))
	}
	if !found {
		t.Errorf("postmortem of /pm/crashed: anomalies %+v, want its disconnected-holder", st.Anomalies)
	}
}

// show --recording --at measures every contender's age at the cursor:
// its node's ctime to the moment asked, not to when its lock was read.
func TestIntegrationShowAtMeasuresAgesAtTheCursor(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	addr := srv.Addr()
	curator := peers.Start(t, peers.Curator, addr)
	holder := curator.Acquire(t, "h", "mutex", "/ages/l")
	curator.WaitHeld(t, "h", time.Minute)
	waiter := curator.Acquire(t, "w", "mutex", "/ages/l")
	rec := filepath.Join(t.TempDir(), "ages.zklocks")
	w := watchRecordedRoot(t, addr, nil, rec, "/ages")
	w.UntilCheck(t, time.Minute, func(s *model.State) string {
		if l := s.Locks["/ages/l"]; l == nil || len(l.Participants) != 2 || s.Pending() > 0 {
			return "the recording has not read /ages/l yet"
		}
		return ""
	})
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second, zk.WithLogger(discard{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	ctimes := map[string]time.Time{}
	for _, c := range []peers.Contender{holder, waiter} {
		_, stat, err := conn.Get(c.Node)
		if err != nil {
			t.Fatal(err)
		}
		ctimes[c.Node] = time.UnixMilli(stat.Ctime)
	}
	// The cursor, seconds after the lock was read: its ages then are
	// seconds short of those at the cursor.
	time.Sleep(4 * time.Second)
	at := time.Now().Add(-time.Second).UTC()
	w.flush(t)
	out, errOut, code := run(t, "show", "--json", "--recording", rec, "--at", at.Format(time.RFC3339Nano), "/ages/l")
	if code != exitOK {
		t.Fatalf("show --recording exited %d: %s", code, errOut)
	}
	var past struct {
		Locks []struct {
			Participants []struct {
				Path   string `json:"path"`
				AgeMs  *int64 `json:"age_ms"`
				HeldMs *int64 `json:"held_ms"`
			} `json:"participants"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &past); err != nil || len(past.Locks) != 1 || len(past.Locks[0].Participants) != 2 {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	for _, p := range past.Locks[0].Participants {
		want := at.Sub(ctimes[p.Path])
		if p.AgeMs == nil || absDur(time.Duration(*p.AgeMs)*time.Millisecond-want) > time.Second {
			t.Errorf("%s: age %s at %s, want about %s (its ctime %s)", p.Path, msOf(p.AgeMs), at.Format(time.TimeOnly), want, ctimes[p.Path].Format(time.TimeOnly))
		}
		if p.HeldMs != nil && time.Duration(*p.HeldMs)*time.Millisecond > want+time.Second {
			t.Errorf("%s: held %d ms, longer than its node's age %s", p.Path, *p.HeldMs, want)
		}
		// Found holding when the recording began: held for at most its
		// node's age, at the cursor too.
		if p.Path == holder.Node && (p.HeldMs == nil || absDur(time.Duration(*p.HeldMs)*time.Millisecond-want) > time.Second) {
			t.Errorf("the holder's hold %s at the cursor (age %s), want at most about %s", msOf(p.HeldMs), msOf(p.AgeMs), want)
		}
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// msOf says a figure of milliseconds from JSON, or that there is none.
func msOf(ms *int64) string {
	if ms == nil {
		return "none"
	}
	return (time.Duration(*ms) * time.Millisecond).String()
}

// record follows this host's audit log: a force-release from the CLI while
// it records is in the recording, and its postmortem tells it forced.
func TestIntegrationRecordKeepsTheCLIsForceRelease(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	addr := srv.Addr()
	curator := peers.Start(t, peers.Curator, addr)
	holder := curator.Acquire(t, "h", "mutex", "/rf/orders")
	curator.WaitHeld(t, "h", time.Minute)
	dir := t.TempDir()
	audit, file := filepath.Join(dir, "audit.log"), filepath.Join(dir, "rf.zklocks")
	ctx, cancel := context.WithCancel(context.Background())
	var errOut zktest.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, "test", []string{"record", "--out", file, "--server", addr, "--root", "/rf", "--audit-log", audit},
			strings.NewReader(""), io.Discard, &errOut)
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if code := <-done; code != exitOK {
				t.Errorf("record ended with %d: %s", code, errOut.String())
			}
		}
	}
	t.Cleanup(stop)
	zktest.WaitUntil(t, time.Minute, func() string {
		if !strings.Contains(errOut.String(), "recording to") {
			return "record has not started: " + errOut.String()
		}
		return ""
	})
	// The recording has the holder before it is force-released.
	zktest.WaitUntil(t, time.Minute, func() string {
		if _, _, code := run(t, "postmortem", "--json", "--recording", file, "/rf/orders"); code != exitOK {
			return "the recording does not hold /rf/orders yet"
		}
		return ""
	})
	if _, errOut, code := run(t, "release", holder.Node, "--force", "--yes", "--server", addr, "--audit-log", audit); code != exitOK {
		t.Fatalf("release exited %d: %s", code, errOut)
	}
	zktest.WaitUntil(t, time.Minute, func() string {
		h, ok := holdOfSession(postmortemOf(t, file, "/rf/orders"), holder.Session)
		if !ok || h.End != model.EndForced || !strings.Contains(h.Audit, `"via":"cli"`) {
			return fmt.Sprintf("the recording tells the hold %+v (found %v), want forced with the CLI's line", h, ok)
		}
		return ""
	})
	stop()
}
