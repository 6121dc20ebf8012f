package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/apptree"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
)

// observersShowJSON is the part of show --json this file reads.
type observersShowJSON struct {
	Locks []struct {
		Path      string   `json:"path"`
		Waiters   int      `json:"waiters"`
		Hidden    []string `json:"hidden_waiters"`
		Observers int      `json:"observers"`
		List      []struct {
			Session  string `json:"session"`
			Certain  bool   `json:"certain"`
			Evidence string `json:"evidence"`
		} `json:"observer_sessions"`
		Anomalies []struct {
			Kind string `json:"kind"`
		} `json:"anomalies"`
	} `json:"locks"`
}

// A held plain lock watched by two sessions carrying zklocks' mark, by a
// session that also watches another plain lock, and by a real kazoo
// waiter: show counts one waiter and three observers, saying which are
// judged, and neither check's --crit-waiters nor herd counts the
// observers. (The judged one is judged from the locks read together:
// shown alone, the lock's table holds no other lock's watches.)
func TestIntegrationShowAndCheckKeepObserversApart(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()
	admin := zks.Connect(t)
	apptree.MkdirAll(t, admin, "/plain")
	const lock, other = "/plain/job-lock", "/plain/report-lock"
	holder := zks.Connect(t)
	for _, p := range []string{lock, other} {
		if _, err := holder.Create(p, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	// Two zklocks as the servers see them: the mark, and an exists watch
	// on the node.
	var marked []string
	for range 2 {
		c := zks.Connect(t)
		for _, p := range []string{lockcore.ObserverMark, lock} {
			if _, _, _, err := c.ExistsW(p); err != nil {
				t.Fatal(err)
			}
		}
		marked = append(marked, lockcore.SessionHex(c.SessionID()))
	}
	// A tool watching both plain locks' nodes.
	tool := zks.Connect(t)
	for _, p := range []string{lock, other} {
		if _, _, _, err := tool.ExistsW(p); err != nil {
			t.Fatal(err)
		}
	}
	race := peers.StartPlainRace(t, server, lock, 1, time.Second, time.Second)
	waiter := race.Sessions()[0]

	var got observersShowJSON
	zktest.WaitUntil(t, 30*time.Second, func() string {
		out, errOut, code := run(t, "show", "--json", "--server", server, lock, other)
		got = observersShowJSON{}
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK || len(got.Locks) != 2 {
			return fmt.Sprintf("show exited %d (%v): %s %s", code, err, out, errOut)
		}
		if l := got.Locks[0]; len(l.Hidden) != 1 {
			return fmt.Sprintf("the kazoo waiter not among the waiters yet: %+v", l)
		}
		return ""
	})
	l := got.Locks[0]
	if l.Path != lock {
		l = got.Locks[1]
	}
	var certain []string
	judged := ""
	for _, o := range l.List {
		if o.Certain {
			certain = append(certain, o.Session)
		} else {
			judged = o.Session
			if !strings.Contains(o.Evidence, other) || !strings.Contains(o.Evidence, "would look the same") {
				t.Errorf("judged observer's evidence: %q", o.Evidence)
			}
		}
	}
	slices.Sort(certain)
	slices.Sort(marked)
	if l.Waiters != 1 || l.Hidden[0] != waiter || l.Observers != 3 || !slices.Equal(certain, marked) ||
		judged != lockcore.SessionHex(tool.SessionID()) || len(l.Anomalies) != 0 {
		t.Errorf("show: %+v, want the waiter %s alone waiting, observers %v and %s", l, waiter, marked, lockcore.SessionHex(tool.SessionID()))
	}

	out, _, code := run(t, "show", "--server", server, lock, other)
	if code != exitOK || !strings.Contains(out, "1 holding, 1 waiting") || !strings.Contains(out, "observers: 3 (watching the node, not counted as waiters)") ||
		!strings.Contains(out, "judged from its watches: also watches the path of another lock") {
		t.Errorf("show's text:\n%s", out)
	}
	// The tool is judged from its watches on the locks read together:
	// check both, as a check of the whole tree does.
	out, _, code = run(t, "check", "--server", server, "--crit-waiters", "2", lock, other)
	if code != exitOK {
		t.Errorf("check --crit-waiters 2 counted observers: exit %d\n%s", code, out)
	}
}
