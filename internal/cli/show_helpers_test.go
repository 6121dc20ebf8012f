package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// showJSON mirrors the JSON contract of `zklocks show --json`.
type showJSON struct {
	Server        string `json:"server"`
	WatchesSource string `json:"watches_source"`
	WatchesNote   string `json:"watches_note"`
	Locks         []struct {
		Path         string   `json:"path"`
		Recipe       string   `json:"recipe"`
		MaxLeases    *int     `json:"max_leases"`
		Holders      int      `json:"holders"`
		Waiters      int      `json:"waiters"`
		HiddenJSON   []string `json:"hidden_waiters"`
		Participants []struct {
			Node     string   `json:"node"`
			Path     string   `json:"path"`
			Seq      *int64   `json:"seq"`
			Mode     string   `json:"mode"`
			Role     string   `json:"role"`
			Position int      `json:"position"`
			Session  *string  `json:"session"`
			Watches  *string  `json:"watches"`
			Chain    []string `json:"chain"`
			Watchers []string `json:"watchers"`
			Token    int64    `json:"token"`
			Data     *string  `json:"data"`
			DataB64  *string  `json:"data_b64"`
			Trunc    bool     `json:"data_truncated"`
			Note     string   `json:"note"`
			Conn     *string  `json:"connection"`
			Expires  *int64   `json:"expires_within_ms"`
		} `json:"participants"`
		Anomalies []struct {
			Kind    string   `json:"kind"`
			Node    string   `json:"node"`
			Nodes   []string `json:"nodes"`
			Session *string  `json:"session"`
			Detail  string   `json:"detail"`
		} `json:"anomalies"`
	} `json:"locks"`
	Errors []struct {
		Path  string `json:"path"`
		Error string `json:"error"`
	} `json:"errors"`
}

// run executes zklocks in-process, with no input, and returns stdout,
// stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := execute(t.Context(), "test", args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func show(t *testing.T, server string, paths ...string) showJSON {
	t.Helper()
	out, errOut, code := run(t, append([]string{"show", "--json", "--server", server}, paths...)...)
	if code != exitOK {
		t.Fatalf("show exited %d: %s", code, errOut)
	}
	var s showJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("show --json printed invalid JSON: %v\n%s", err, out)
	}
	return s
}

// expect is what a client-built queue must look like: for each contender in
// queue order, its mode and the index of the contender it watches (-1 for a
// holder).
type expect struct {
	mode    string
	watches int
}

// agree polls show until it matches the contenders' clients on holders,
// modes, sessions and watch targets (watches are set just after a node is
// created, so the first reads may precede them), and fails with the last
// disagreement.
func agree(t *testing.T, server, path string, p *peers.Peer, cs []peers.Contender, want []expect) showJSON {
	t.Helper()
	var s showJSON
	zktest.WaitUntil(t, 20*time.Second, func() string {
		s = show(t, server, path)
		if d := disagreement(s, p, cs, want); d != "" {
			return "show never agreed with the clients: " + d
		}
		return ""
	})
	return s
}

func disagreement(s showJSON, p *peers.Peer, cs []peers.Contender, want []expect) string {
	if s.WatchesSource != "server" {
		return "watches_source = " + s.WatchesSource + ": " + s.WatchesNote
	}
	if len(s.Locks) != 1 {
		return fmt.Sprintf("%d locks", len(s.Locks))
	}
	ps := s.Locks[0].Participants
	if len(ps) != len(cs) {
		return fmt.Sprintf("%d participants, want %d", len(ps), len(cs))
	}
	for i, c := range cs {
		got := ps[i]
		if got.Path != c.Node {
			return fmt.Sprintf("position %d is %s, want %s", i, got.Path, c.Node)
		}
		if got.Session == nil || *got.Session != fmt.Sprintf("0x%x", c.Session) {
			return fmt.Sprintf("%s: session %v, want 0x%x", c.ID, got.Session, c.Session)
		}
		if got.Mode != want[i].mode {
			return fmt.Sprintf("%s: mode %s, want %s", c.ID, got.Mode, want[i].mode)
		}
		holds := p.Held(c.ID)
		if (got.Role == "holder") != holds {
			return fmt.Sprintf("%s: show says %s, the client says held=%v", c.ID, got.Role, holds)
		}
		if w := want[i].watches; w >= 0 {
			target := strings.TrimPrefix(cs[w].Node, s.Locks[0].Path+"/")
			if got.Watches == nil || *got.Watches != target {
				return fmt.Sprintf("%s: watches %v, want %s", c.ID, got.Watches, target)
			}
		} else if got.Watches != nil {
			return fmt.Sprintf("%s: holder watches %s", c.ID, *got.Watches)
		}
	}
	return ""
}

func kinds(s showJSON) []string {
	var out []string
	for _, l := range s.Locks {
		for _, a := range l.Anomalies {
			out = append(out, a.Kind)
		}
	}
	return out
}
