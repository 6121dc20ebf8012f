package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares the ANSI-stripped screen with testdata/name.golden, after
// checking that it is exactly the terminal's size.
func golden(t *testing.T, name string, a *App) {
	t.Helper()
	got := screen(a)
	checkSize(t, got, a.width, a.height)
	goldenText(t, name, got)
}

// goldenText compares got with testdata/name.golden.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test ./ui -update rewrites it)\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

// checkSize fails unless s is h lines of exactly w cells.
func checkSize(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), h, s)
	}
	for i, l := range lines {
		if n := width(l); n != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i+1, n, w, l)
		}
	}
}

// participant finds a fixture participant by lock path and position.
func participant(t *testing.T, a *App, lock string, pos int) lockcore.Participant {
	t.Helper()
	l := a.env.state.Locks[lock]
	if l == nil || pos >= len(l.Participants) {
		t.Fatalf("no participant %d in %s", pos, lock)
	}
	return l.Participants[pos]
}

var sizes = []struct {
	name string
	w, h int
}{{"80x24", 80, 24}, {"120x40", 120, 40}}

func TestGoldenScreens(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			golden(t, "locks_"+sz.name, a)

			send(a, openLockMsg{path: "/locks/orders", node: participant(t, a, "/locks/orders", 5).Path})
			golden(t, "detail_orders_"+sz.name, a)

			press(a, "enter")
			golden(t, "node_text_"+sz.name, a)

			send(a, openLockMsg{path: "/locks/billing"})
			press(a, "enter")
			golden(t, "node_binary_1mb_"+sz.name, a)

			press(a, "2")
			golden(t, "sessions_"+sz.name, a)

			press(a, "3")
			golden(t, "events_"+sz.name, a)

			press(a, "?")
			golden(t, "help_"+sz.name, a)

			press(a, "pgdown")
			golden(t, "help_page2_"+sz.name, a)
			press(a, "esc")
		})
	}
}

func TestGoldenDetails(t *testing.T) {
	for _, tt := range []struct {
		name, lock string
		pos        int
	}{
		{"detail_wait_cycle", "/app/kazoo/jobs", 0},
		{"detail_ephemeral_hidden_waiters", "/services/scheduler/leader-lock", 0},
		{"detail_semaphore", "/pool/workers", 2},
		{"detail_orphans", "/locks/orphans", 2},
		{"detail_hostile_names", "/locks/\u202eevil", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestApp(t, 80, 24)
			send(a, openLockMsg{path: tt.lock, node: participant(t, a, tt.lock, tt.pos).Path})
			golden(t, tt.name+"_80x24", a)
		})
	}
}

func TestGoldenHostileData(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, openLockMsg{path: "/locks/\u202eevil"})
	press(a, "enter")
	got := screen(a)
	for _, raw := range []string{"\x1b]", "\u202e", "\x07", "\xff"} {
		if strings.Contains(a.View(), raw) {
			t.Fatalf("raw %q reached the terminal:\n%s", raw, got)
		}
	}
	if !strings.Contains(got, `\x1b]0;pwned\x07`) || !strings.Contains(got, `report\u202etxt.exe`) {
		t.Fatalf("hostile data not shown escaped:\n%s", got)
	}
	golden(t, "node_hostile_80x24", a)
}

func TestGoldenCompactAndTiny(t *testing.T) {
	a := newTestApp(t, 40, 10)
	golden(t, "locks_40x10", a)
	send(a, openLockMsg{path: "/locks/orders", node: participant(t, a, "/locks/orders", 5).Path})
	golden(t, "detail_orders_40x10", a)
	press(a, "enter")
	golden(t, "node_text_40x10", a)

	tiny := newTestApp(t, 20, 5)
	golden(t, "too_small_20x5", tiny)
}

func TestGoldenStaleReadOnly(t *testing.T) {
	a := newTestApp(t, 80, 24, func(o *Options) { o.ReadOnly = true })
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventConn, At: t0.Add(-12 * 1e9),
		Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: sid(1), Since: t0.Add(-12 * 1e9)}}}})
	golden(t, "locks_stale_read_only_80x24", a)
}

// TestGoldenCostWays: members as production ships them. One answers only
// srvr and its AdminServer: the words come VIA admin. The other answers
// neither way: the status bar says so, and the cost screen how each member
// answered and the fix.
func TestGoldenCostWays(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			at := a.env.now().Add(-20 * time.Second)
			refused := []string{"cons", "wchs", "wchc", "wchp"}
			noAdmin := fmt.Errorf("%w at http://10.0.0.2:8080/commands/connections: connection refused", words.ErrAdminUnavailable)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: at,
				Note: "wchc and wchp refused, and no AdminServer answered, by 10.0.0.2:2181",
				Servers: []zkwatch.ServerInfo{
					{Addr: "10.0.0.1:2181", Status: words.ServerStatus{Mode: "leader"}, Refused: refused[:3],
						Via: map[string]words.Via{"srvr": words.ViaWord, "cons": words.ViaAdmin, "wchs": words.ViaAdmin, "wchc": words.ViaAdmin}},
					{Addr: "10.0.0.2:2181", Status: words.ServerStatus{Mode: "follower"}, Refused: refused, AdminErr: noAdmin,
						Via: map[string]words.Via{"srvr": words.ViaWord}}},
				Cost: []words.MemberCost{{Member: "10.0.0.1:2181", Bytes: 1 << 20, Time: 80 * time.Millisecond, Words: []words.WordCost{
					{Word: "cons", Asks: 12, Bytes: 200 << 10, Time: 40 * time.Millisecond, Every: 5 * time.Second, Via: words.ViaAdmin},
					{Word: "srvr", Asks: 12, Bytes: 3 << 10, Time: 10 * time.Millisecond, Every: 5 * time.Second, Via: words.ViaWord},
					{Word: "wchs", Asks: 12, Bytes: 900, Time: 30 * time.Millisecond, Every: 5 * time.Second, Via: words.ViaAdmin}}}}}}})
			golden(t, "locks_ways_"+sz.name, a)
			press(a, "c")
			golden(t, "cost_ways_"+sz.name, a)
		})
	}
}

func TestGoldenCost(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			at := a.env.now().Add(-20 * time.Second)
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventDiscovery, Discovery: zkwatch.Discovery{DumpAt: at, Candidates: 10_214,
				Walking: true, WalkReads: 41_200, WalkRate: 2000, Watching: 10_107, WatchedDirs: 99, PolledCount: 1,
				PolledDirs: []string{"/locks"}, ElsewhereWithin: 30 * time.Second}}}})
			send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventServers, At: at, Note: "1000000 watches, over the budget of 100000, on 10.0.0.1:2181",
				Cost: []words.MemberCost{{Member: "10.0.0.1:2181", Bytes: 9 << 20, Time: 310 * time.Millisecond, Words: []words.WordCost{
					{Word: "cons", Asks: 12, Bytes: 1 << 20, Time: 60 * time.Millisecond, Every: 5 * time.Second},
					{Word: "dump", Asks: 6, Bytes: 8 << 20, Time: 240 * time.Millisecond, Every: 12 * time.Second},
					{Word: "srvr", Asks: 12, Bytes: 3 << 10, Time: 10 * time.Millisecond, Every: 5 * time.Second},
					{Word: "wchs", Asks: 12, Bytes: 600, Time: 0, Every: 5 * time.Second}}}}}}})
			golden(t, "locks_walking_"+sz.name, a)
			press(a, "c")
			golden(t, "cost_"+sz.name, a)
			press(a, "esc")
			if costOpen(a) {
				t.Fatal("esc did not close the cost screen")
			}
		})
	}
}
