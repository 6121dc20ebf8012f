package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// The readers TestIntegrationServerConfigs sees each cluster through:
// show, check and doctor as processes would run them, and the watcher the
// UI runs.

// checkFindings runs check --json over /app and describes its findings.
func checkFindings(t *testing.T, args []string) []string {
	t.Helper()
	out, errOut, _ := run(t, append([]string{"check", "--json", "--root", "/app"}, args...)...)
	var r struct {
		Findings []struct {
			Kind    string  `json:"kind"`
			Lock    string  `json:"lock"`
			Session *string `json:"session"`
			Client  *string `json:"client"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("check --json: %v\n%s%s", err, out, errOut)
	}
	var found []string
	for _, f := range r.Findings {
		client := "no client"
		if f.Client != nil {
			client = "client"
		}
		found = append(found, fmt.Sprintf("%s %s session=%v %s", f.Kind, f.Lock, f.Session != nil, client))
	}
	slices.Sort(found)
	return found
}

// showFull is show --json with the fields this test compares.
type showFull struct {
	WatchesSource string `json:"watches_source"`
	Fix           string `json:"fix"`
	Servers       []struct {
		Member   string            `json:"member"`
		Answered map[string]string `json:"answered"`
	} `json:"servers"`
	Locks []struct {
		Path         string `json:"path"`
		Participants []struct {
			Node       string  `json:"node"`
			Role       string  `json:"role"`
			Watches    *string `json:"watches"`
			Conn       *string `json:"connection"`
			Expires    *int64  `json:"expires_within_ms"`
			Client     *string `json:"client"`
			Member     *string `json:"member"`
			ClientNote string  `json:"client_note"`
		} `json:"participants"`
	} `json:"locks"`
}

func showAll(t *testing.T, args []string, paths ...string) showFull {
	t.Helper()
	out, errOut, code := run(t, append(append([]string{"show", "--json"}, args...), paths...)...)
	if code != exitOK {
		t.Fatalf("show exited %d: %s", code, errOut)
	}
	var s showFull
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	return s
}

func describeParticipant(lock string, p struct {
	Node       string  `json:"node"`
	Role       string  `json:"role"`
	Watches    *string `json:"watches"`
	Conn       *string `json:"connection"`
	Expires    *int64  `json:"expires_within_ms"`
	Client     *string `json:"client"`
	Member     *string `json:"member"`
	ClientNote string  `json:"client_note"`
}, memberName map[string]string) string {
	client := "client unknown"
	if p.Client != nil && p.Member != nil {
		client = "client@" + memberName[*p.Member]
	}
	conn := "connection unknown"
	if p.Conn != nil && *p.Conn != "unknown" {
		conn = *p.Conn
	}
	if p.Expires != nil {
		conn += " expiry known"
	}
	watches := "watches=-"
	if p.Watches != nil {
		watches = "watches=" + strings.TrimPrefix(*p.Watches, lock+"/")
		if len(watches) > 10 {
			watches = "watches=…" + watches[len(watches)-10:] // the sequence: names hold client ids
		}
	}
	return fmt.Sprintf("%s %s %s %s %s", lock, p.Role, client, conn, watches)
}

// TestIntegrationServerConfigs: on a standalone server and on a

// watchLive runs the watcher the UI runs, its first walk cut short so that
// locks are found by dump where a member answers one, and says what it
// found once it has both locks.
func watchLive(t *testing.T, c cluster, locks ...string) string {
	t.Helper()
	port, each, err := words.ParseAdminPorts(c.adminPort)
	if err != nil {
		t.Fatal(err)
	}
	conn := watchtest.Dial(t, c.connect(), zkwatch.Options{Admin: &words.AdminServer{Port: port, Ports: each}})
	// The watcher ends as this returns, so that it holds no watch in what
	// the caller measures next.
	ctx, cancel := context.WithCancel(context.Background())
	feed := watchtest.Drain(zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{"/app"}, EnrichEvery: time.Second, WalkBurst: 1,
		WatchMode: zkwatch.WatchesServer}).Events())
	defer func() { cancel(); <-feed.Done(); conn.Close() }()
	var verdict string
	feed.UntilCheck(t, 30*time.Second, func(state *model.State) string {
		if state.LastSync.IsZero() {
			return "locks or clients not in yet: no sync"
		}
		found := "dump"
		if d := state.Discovery; d.DumpAt.IsZero() {
			found = "walk (" + d.DumpNote + ")"
		}
		clients := "holders' clients named"
		for _, p := range locks {
			l := state.Locks[p]
			if l == nil || state.Fix == "" && len(state.Clients) == 0 {
				return fmt.Sprintf("locks or clients not in yet: %s: %v, fix %q, %d clients, %+v, servers %+v", p, l != nil, state.Fix, len(state.Clients), state.Discovery, state.Servers)
			}
			for _, h := range l.Participants {
				if h.Role == "holder" && state.Client(h.Session).Addr == "" {
					clients = "a holder's client unknown"
				}
			}
		}
		table := "watch table read"
		if state.WatchesNote != "" {
			table = "no watch table"
		} else if state.WatchesAt.IsZero() {
			return "the watch table not read yet"
		}
		fix := ""
		if state.Fix != "" {
			fix = ", fix said"
		}
		verdict = fmt.Sprintf("locks found by %s, %s, %s%s", found, clients, table, fix)
		return ""
	})
	return verdict
}

// doctorWays runs doctor --json and returns each member's ways.
func doctorWays(t *testing.T, args []string, memberName map[string]string) []string {
	t.Helper()
	out, errOut, code := run(t, append([]string{"doctor", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("doctor exited %d: %s", code, errOut)
	}
	var d struct {
		Members []struct {
			Member       string `json:"member"`
			Mode         string `json:"mode"`
			Capabilities []struct {
				Via *string `json:"via"`
				Fix string  `json:"fix"`
			} `json:"capabilities"`
		} `json:"members"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	var ways []string
	for _, m := range d.Members {
		w := []string{memberName[m.Member], m.Mode}
		for _, c := range m.Capabilities {
			switch {
			case c.Via != nil:
				w = append(w, *c.Via)
			case c.Fix != "":
				w = append(w, "fix")
			default:
				w = append(w, "-")
			}
		}
		ways = append(ways, strings.Join(w, " "))
	}
	slices.Sort(ways)
	return ways
}

// wantDoctor is what doctor should say of each member: every capability
// by via, but a follower's expiry times, which only the leader's dump has
// (from the leader when it gives them), and srvr, which every
// configuration allows.
func wantDoctor(t *testing.T, got []string, via string) {
	t.Helper()
	for _, m := range got {
		f := strings.Fields(m)
		want := []string{f[0], f[1], via, via, via, via, via, "4lw"}
		if f[1] == "follower" {
			want[6] = "leader"
			if via == "fix" {
				want[6] = "-"
			}
		}
		if !reflect.DeepEqual(f, want) {
			t.Errorf("doctor: %s, want %s", m, strings.Join(want, " "))
		}
	}
}
