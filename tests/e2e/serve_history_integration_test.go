package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
)

// serve keeps its shared watcher's history by default, and R replays its
// last hour in the session that asked, which q leaves for the live UI.
func TestIntegrationServeHistory(t *testing.T) {
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	holder := curator.Acquire(t, "c-holder", "mutex", "/serveh/orders")
	curator.WaitHeld(t, "c-holder", 30*time.Second)
	waiter := curator.Acquire(t, "c-waiter", "mutex", "/serveh/orders")

	keys := t.TempDir()
	pub, _ := serverig.SSHKey(t, keys, "alice")
	r := serverig.Start(t, zks, "/serveh", []string{pub})
	for _, ext := range []string{"", ".pub"} {
		b, _ := os.ReadFile(filepath.Join(keys, "alice"+ext))
		if err := os.WriteFile(r.Path("alice"+ext), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := r.Open("alice", "alice", 140, 30)
	s.WaitText("/serveh/orders")
	curator.Release(t, "c-holder")
	curator.WaitHeld(t, "c-waiter", 30*time.Second)
	short := func(n string) string { return n[len(n)-10:] }
	s.Keys("3")
	s.WaitFor("the grant in the live event log", func(sc string) bool { return lineWith(sc, "granted", short(waiter.Node)) })

	s.Keys("R")
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(r.Log())
		}
	})
	s.WaitText("REPLAY")
	s.Keys("t")
	s.WaitText("Go to a time")
	s.Keys("e", "n", "d", "Enter")
	s.WaitFor("the dialog closed", func(sc string) bool { return !strings.Contains(sc, "Go to a time") })
	s.Keys("3")
	s.WaitFor("the release and the grant, replayed", func(sc string) bool {
		// Its session lived on: released by its client, or forced by
		// another, once a member's answer tells it (released? until then).
		ended := lineWith(sc, "rel/forced", short(holder.Node)) || lineWith(sc, "released?", short(holder.Node))
		return ended && lineWith(sc, "granted", short(waiter.Node))
	})
	r.WaitLog("opened the history of context")
	// The log says where the history is, as the watcher started: under
	// history/serve, named for the cluster given by --server.
	r.WaitLog("keeping the history in")
	var dir string
	for _, line := range strings.Split(r.Log(), "\n") {
		if _, after, ok := strings.Cut(line, "keeping the history in "); ok {
			dir, _, _ = strings.Cut(after, " (max age")
		}
	}
	if parts, _ := filepath.Glob(filepath.Join(dir, "history-*.zklocks")); filepath.Base(filepath.Dir(dir)) != "serve" || len(parts) == 0 {
		t.Errorf("the history logged in %q (parts %v), want a directory under history/serve holding its parts", dir, parts)
	}

	// q ends the replay, not the session.
	s.Keys("q")
	s.WaitFor("the live UI again", func(sc string) bool {
		return strings.Contains(sc, "Locks") && strings.Contains(sc, "connected") && !strings.Contains(sc, "REPLAY")
	})
	if s.PaneDead() {
		t.Fatal("q in the replay ended the session")
	}

	// A force-release from the CLI on serve's host, audited to the log
	// serve follows, is kept in its history as forced, with its line.
	if _, errOut, code := run(t, "release", waiter.Node, "--force", "--yes", "--server", zks.Addr(), "--config", "", "--audit-log", r.Path("audit.log")); code != 0 {
		t.Fatalf("release exited %d: %s", code, errOut)
	}
	zktest.WaitUntil(t, time.Minute, func() string {
		out, errOut, code := run(t, "postmortem", "/serveh/orders", "--recording", dir, "--json")
		if code != 0 {
			return fmt.Sprintf("postmortem exited %d: %s", code, errOut)
		}
		var st model.Story
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for _, h := range st.Holds {
			if h.Session == fmt.Sprintf("0x%x", waiter.Session) && h.End == model.EndForced && strings.Contains(h.Audit, `"via":"cli"`) {
				return ""
			}
		}
		return fmt.Sprintf("serve's history tells the holds %+v, want the waiter's forced with the CLI's line", st.Holds)
	})
}
