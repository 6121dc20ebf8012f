package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model/check"
)

// checkJSON mirrors the JSON contract of `zklocks check --json`.
type checkJSON struct {
	Status   string   `json:"status"`
	Code     int      `json:"code"`
	Summary  string   `json:"summary"`
	Locks    int      `json:"locks"`
	Complete bool     `json:"complete"`
	Errors   []string `json:"errors"`
	Findings []struct {
		Status  string   `json:"status"`
		Lock    string   `json:"lock"`
		Kind    string   `json:"kind"`
		Nodes   []string `json:"nodes"`
		Session *string  `json:"session"`
		Client  *string  `json:"client"`
		Holders int      `json:"holders"`
		Waiters int      `json:"waiters"`
	} `json:"findings"`
}

// kazooReaderDeadlock builds, with real kazoo 2.8 clients, the wait-cycle
// TestIntegrationShowKazooReaderDeadlock documents: after the first
// readers and writer release, readers wait on the newest write, which
// waits back on them. It returns the contenders, c4, c5 and c6 in the cycle.
func kazooReaderDeadlock(t *testing.T, p *peers.Peer, path string) []peers.Contender {
	t.Helper()
	cs := queue(t, p, path, "RRWRRWWR", map[byte]string{'R': "read", 'W': "write"})
	p.WaitHeld(t, "c0", 30*time.Second)
	p.WaitHeld(t, "c1", 30*time.Second)
	p.Release(t, "c0")
	p.Release(t, "c1")
	p.WaitHeld(t, "c2", 30*time.Second)
	p.Release(t, "c2")
	return cs
}

func TestIntegrationCheckStuckTree(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()
	kazoo := peers.Start(t, peers.Kazoo, server)
	cycle := kazooReaderDeadlock(t, kazoo, "/locks/kazoo-deadlock")
	curator := peers.Start(t, peers.Curator, server)
	holder := curator.Acquire(t, "h", "mutex", "/locks/held")
	curator.WaitHeld(t, "h", 30*time.Second)
	curator.Acquire(t, "w", "mutex", "/locks/held")

	// The hold passes 1 s, and the readers' watches settle, on their own
	// time: ask until check says both, failing with its last answer.
	args := []string{"check", "--server", server, "--warn-held", "500ms", "--crit-held", "1s"}
	var got checkJSON
	var code int
	zktest.WaitUntil(t, 30*time.Second, func() string {
		out, errOut, c := run(t, append(args, "--json")...)
		code = c
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return fmt.Sprintf("check --json printed invalid JSON (%v): %s %s", err, out, errOut)
		}
		crit := map[string]bool{}
		for _, f := range got.Findings {
			crit[f.Kind] = crit[f.Kind] || f.Status == "CRITICAL"
		}
		if c != int(check.Critical) || !crit["wait-cycle"] || !crit["long-held"] {
			return fmt.Sprintf("check exited %d: %+v", c, got)
		}
		return ""
	})
	if got.Status != "CRITICAL" || got.Code != 2 || got.Locks != 2 || !got.Complete {
		t.Fatalf("%+v", got)
	}
	byKind := map[string]int{}
	for i, f := range got.Findings {
		if _, seen := byKind[f.Kind]; !seen {
			byKind[f.Kind] = i
		}
	}
	f := got.Findings[byKind["wait-cycle"]]
	want := []string{rel(cycle[4].Node), rel(cycle[5].Node), rel(cycle[6].Node)}
	if f.Status != "CRITICAL" || f.Lock != "/locks/kazoo-deadlock" || strings.Join(f.Nodes, " ") != strings.Join(want, " ") || f.Holders != 0 || f.Waiters != 5 {
		t.Errorf("wait-cycle finding %+v, want nodes %v", f, want)
	}
	if f.Session == nil || !isSessionOf(*f.Session, cycle[4:7]) || f.Client == nil || !strings.HasPrefix(*f.Client, "127.0.0.1:") {
		t.Errorf("wait-cycle finding must name a session of the cycle and its client: %+v", f)
	}
	f = got.Findings[byKind["long-held"]]
	if f.Status != "CRITICAL" || f.Lock != "/locks/held" || len(f.Nodes) != 1 || f.Nodes[0] != rel(holder.Node) ||
		f.Session == nil || *f.Session != fmt.Sprintf("0x%x", holder.Session) || f.Holders != 1 || f.Waiters != 1 {
		t.Errorf("long-held finding %+v, want the holder %s", f, holder.Node)
	}

	out, _, code := run(t, args...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != int(check.Critical) || !strings.HasPrefix(lines[0], "CRITICAL: 2 of 2 locks stuck: /locks/held long-held, /locks/kazoo-deadlock wait-cycle | locks=2;;;0 stuck=2;;;0") {
		t.Fatalf("exit %d, text:\n%s", code, out)
	}
	if !strings.Contains(out, "\nCRITICAL /locks/kazoo-deadlock wait-cycle nodes=") || !strings.Contains(out, "\nCRITICAL /locks/held long-held nodes=") ||
		!strings.Contains(lines[len(lines)-1], "'/locks/held:waiters'=1;;;0") {
		t.Errorf("text:\n%s", out)
	}

	// Only the lock named; a higher --crit-held leaves it a warning.
	out, _, code = run(t, "check", "--server", server, "--warn-held", "500ms", "--crit-held", "24h", "/locks/held")
	if code != int(check.Warning) || !strings.HasPrefix(out, "WARNING: 1 of 1 lock needs a look: /locks/held long-held") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// A path that cannot be read leaves the check unable to say.
	out, _, code = run(t, "check", "--server", server, "--warn-held", "0", "/locks/held", "/locks/missing")
	if code != int(check.Unknown) || !strings.HasPrefix(out, "UNKNOWN: 1 lock, none stuck or over a threshold; 1 read failed: ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	curator.Release(t, "h")
	curator.Release(t, "w")
	// The peer's release returns before the server is done with its
	// client: on a loaded machine w's session was seen connected nowhere
	// yet still scheduled to expire, its node still held, and check
	// rightly called it a disconnected holder. The lock is free once its
	// nodes are gone.
	conn := zks.Connect(t)
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if kids, _, err := conn.Children("/locks/held"); err != nil || len(kids) > 0 {
			return fmt.Sprintf("/locks/held still has %v (%v)", kids, err)
		}
		return ""
	})
	out, _, code = run(t, "check", "--server", server, "/locks/held")
	if code != int(check.OK) || !strings.HasPrefix(out, "OK: 1 lock, none stuck") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// rel is a contender's node relative to its lock, as findings name it.
func rel(node string) string { return node[strings.LastIndexByte(node, '/')+1:] }

func isSessionOf(session string, cs []peers.Contender) bool {
	for _, c := range cs {
		if session == fmt.Sprintf("0x%x", c.Session) {
			return true
		}
	}
	return false
}
