package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/zkwatch"
)

// queue is a hand-made Curator mutex: its contenders as (session, seq)
// pairs in queue order, the holder's position given, each waiter watching
// the one before it.
func queue(at time.Time, holder int, cs ...[2]int) *lockcore.Lock {
	const path = "/locks/orders"
	l := &lockcore.Lock{Path: path, Recipe: lockcore.RecipeCuratorMutex, WatchesSource: lockcore.WatchesFromRecipe, ReadAt: at}
	for i, c := range cs {
		node := curator("lock-", c[0], c[1])
		p := lockcore.Participant{Node: node, Path: path + "/" + node, Recipe: lockcore.RecipeCuratorMutex, Seq: int64(c[1]),
			HasSeq: true, Mode: lockcore.ModeExclusive, Role: lockcore.RoleWaiter, Position: i, Session: sid(c[0]),
			Ephemeral: true, Token: 0x100000000 + int64(c[1]), Ctime: t0.Add(-time.Hour), Age: at.Sub(t0.Add(-time.Hour))}
		if i == holder {
			p.Role = lockcore.RoleHolder
		}
		l.Participants = append(l.Participants, p)
	}
	for i := range l.Participants {
		if p := &l.Participants[i]; p.Role == lockcore.RoleWaiter {
			prev := l.Participants[max(i-1, 0)]
			if i == 0 {
				prev = l.Participants[holder]
			}
			p.Watches = &lockcore.WatchTarget{Node: prev.Node, Path: prev.Path}
		}
	}
	lockcore.FillChains(l.Participants)
	return l
}

// tapeFixture is a minute of /locks/orders ending at t0: four sessions
// take turns; at t0-25s session 4 overtakes session 1 (a FIFO break).
func tapeFixture() *model.Tape {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	lock := func(s, holder int, cs ...[2]int) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, At: at(s), Path: "/locks/orders", Lock: queue(at(s), holder, cs...)}
	}
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at(-60), Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "10.0.0.1:2181", Session: sid(99), Since: at(-60)}},
		lock(-60, 0, [2]int{1, 0}),
		{Kind: zkwatch.EventSynced, At: at(-60), Discovery: zkwatch.Discovery{Complete: true}},
		lock(-55, 0, [2]int{1, 0}, [2]int{2, 1}),
		lock(-50, 0, [2]int{1, 0}, [2]int{2, 1}, [2]int{3, 2}),
		lock(-45, 0, [2]int{2, 1}, [2]int{3, 2}),
		lock(-40, 0, [2]int{2, 1}, [2]int{3, 2}, [2]int{1, 3}),
		lock(-35, 0, [2]int{3, 2}, [2]int{1, 3}),
		{Kind: zkwatch.EventServers, At: at(-32), Servers: []zkwatch.ServerInfo{{Addr: "10.0.0.1:2181"}}},
		lock(-30, 0, [2]int{3, 2}, [2]int{1, 3}, [2]int{4, 4}),
		lock(-25, 1, [2]int{1, 3}, [2]int{4, 4}),
		lock(-15, 0, [2]int{1, 3}),
		lock(-5, 0, [2]int{1, 3}, [2]int{2, 5}),
	}
	return model.NewTape(evs)
}

func newReplayApp(t testing.TB, w, h int, profile termenv.Profile) *App {
	t.Helper()
	a := New(Options{Tape: tapeFixture(), Location: time.UTC, Profile: profile})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

func TestReplayIsReadOnlyByConstruction(t *testing.T) {
	a := newReplayApp(t, 80, 24, termenv.Ascii)
	if a.opt.Actions != nil || a.opt.ReadNode != nil || a.opt.Events != nil || !a.opt.ReadOnly {
		t.Fatalf("a replay has something to act or read with: %+v", a.opt)
	}
	for _, k := range []string{"a", "D", "F", "v", "r"} {
		if cmd := a.handleKey(keyMsg(k)); cmd != nil {
			t.Errorf("%s gave a command in a replay", k)
		}
	}
	if !strings.Contains(screen(a), "READ-ONLY") || !strings.Contains(screen(a), "REPLAY") {
		t.Errorf("no READ-ONLY or REPLAY badge:\n%s", screen(a))
	}
}

// A recording read with warnings (a log cut short, members that
// disagree) is never replayed as if it were whole: the status bar says
// so for as long as it is open, and the first warning is told at once.
func TestReplaySaysItsWarnings(t *testing.T) {
	warned := []string{"txnlog: log.20: log ends in the middle of a record at offset 2519: read up to there",
		"zxids 0x1 to 0x36 differ in /data/zk2 from the other members' copy"}
	a := New(Options{Tape: tapeFixture(), TapeWarnings: warned, Location: time.UTC, Profile: termenv.Ascii})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	sc := screen(a)
	if !strings.Contains(sc, "⚠ 2 warnings") ||
		!strings.Contains(sc, "log.20: log ends in the middle of a record at offset 2519: read up to there (1 of 2 warnings") {
		t.Fatalf("the warnings are not said:\n%s", sc)
	}
	if clean := newReplayApp(t, 160, 30, termenv.Ascii); strings.Contains(screen(clean), "warning") {
		t.Errorf("a recording read whole says it was not:\n%s", screen(clean))
	}
}

func TestReplayCursor(t *testing.T) {
	a := newReplayApp(t, 120, 40, termenv.Ascii)
	tape := a.replay.tape
	// It opens after the first sync, paused.
	if a.replay.n != 3 || a.replay.playing {
		t.Fatalf("opened at %d (playing %v), want 3, paused", a.replay.n, a.replay.playing)
	}
	same := func(what string) {
		t.Helper()
		if got, want := showJSON(a.env.state), showJSON(tape.StateAt(a.replay.n)); got != want {
			t.Fatalf("%s: state at %d differs from the tape's", what, a.replay.n)
		}
		if !a.env.now().Equal(a.replay.at) {
			t.Fatalf("%s: the clock is not the cursor", what)
		}
	}
	press(a, "]")
	if a.replay.n != 4 || !a.replay.at.Equal(t0.Add(-55*time.Second)) {
		t.Fatalf("]: at %d %v", a.replay.n, a.replay.at)
	}
	same("]")
	// The servers' refresh is not a change: ] steps over it.
	press(a, "]", "]", "]", "]", "]")
	if a.replay.n != 10 {
		t.Fatalf("] over a servers event: at %d, want 10", a.replay.n)
	}
	same("] ×5")
	press(a, "[")
	if a.replay.n != 8 {
		t.Fatalf("[: at %d, want 8", a.replay.n)
	}
	same("[")
	// Grants of the selected lock.
	press(a, "}")
	if a.replay.n != 11 {
		t.Fatalf("}: at %d, want 11 (the grant at t0-25s)", a.replay.n)
	}
	press(a, "{")
	if a.replay.n != 8 {
		t.Fatalf("{: at %d, want 8 (the grant at t0-35s)", a.replay.n)
	}
	same("{")
	// A typed time.
	press(a, "t")
	press(a, "0", "2", ":", "5", "9", ":", "5", "0", "enter")
	if a.replay.n != 12 || !a.replay.at.Equal(t0.Add(-10*time.Second)) {
		t.Fatalf("t 02:59:50: at %d %v", a.replay.n, a.replay.at)
	}
	same("t")
	press(a, "t", "x", "enter")
	if openDialog(a) == nil || !strings.Contains(screen(a), "is not a time") {
		t.Fatalf("a bad time does not say so:\n%s", screen(a))
	}
	press(a, "esc")
	// Playing: each frame moves the cursor by its length times the speed,
	// and play stops at the end.
	press(a, ">", ">", ">", ">", ">", ">", "t", "-", "3", "0", "s", "enter")
	a.Update(keyMsg(" "))
	if !a.replay.playing {
		t.Fatal("space did not play")
	}
	before := a.replay.at
	a.Update(replayTickMsg{frame: a.replay.frame})
	if got := a.replay.at.Sub(before); got != 100*replayFrame {
		t.Fatalf("a frame at ×100 moved %v", got)
	}
	same("a frame")
	for i := 0; i < 5 && a.replay.playing; i++ {
		a.Update(replayTickMsg{frame: a.replay.frame})
	}
	if a.replay.playing || a.replay.n != tape.Len() {
		t.Fatalf("play did not stop at the end: %d of %d", a.replay.n, tape.Len())
	}
	same("play")
	// Back to the start from the end: a fresh state, not one moved on.
	press(a, "t", "s", "t", "a", "r", "t", "enter")
	same("start")
}

// showJSON is a state's locks as show --json prints them.
func showJSON(s *model.State) string {
	var b strings.Builder
	r := report.Report{}
	for _, l := range s.SortedLocks(model.ByPath) {
		r.Locks = append(r.Locks, *l)
	}
	r.WriteJSON(&b)
	return b.String() + itoa(len(s.History))
}

func TestTimelineGolden(t *testing.T) {
	for _, sz := range sizes {
		for _, colour := range []struct {
			name    string
			profile termenv.Profile
		}{{"nocolor", termenv.Ascii}, {"color", termenv.ANSI}} {
			a := newReplayApp(t, sz.w, sz.h, colour.profile)
			a.seek(a.replay.tape.Len(), t0)
			press(a, "4")
			if a.focused() != focusTimeline {
				t.Fatal("4 does not open the timeline")
			}
			name := "timeline_" + colour.name + "_" + sz.name
			if colour.profile == termenv.Ascii {
				golden(t, name, a)
			} else {
				goldenRaw(t, name, a)
			}
		}
	}
	// Zoomed out, and the busiest locks.
	a := newReplayApp(t, 80, 24, termenv.Ascii)
	a.seek(a.replay.tape.Len(), t0)
	press(a, "4", "-", "b")
	golden(t, "timeline_busiest_5m_80x24", a)
}

// goldenRaw is golden with the colours kept.
func goldenRaw(t *testing.T, name string, a *App) {
	t.Helper()
	got := a.View()
	checkSize(t, ansi.Strip(got), a.width, a.height)
	if !strings.Contains(got, "\x1b[") {
		t.Fatalf("%s has no colour", name)
	}
	goldenText(t, name, got)
}

func TestTimelineSpansAndStats(t *testing.T) {
	a := newReplayApp(t, 80, 24, termenv.Ascii)
	a.seek(a.replay.tape.Len(), t0)
	lt := a.env.state.Timeline("/locks/orders", t0.Add(-time.Minute), t0)
	// Waits seen from join to grant: s2 10s, s3 15s, s4 5s, s1 (again) 25s.
	wantWaits := []time.Duration{5 * time.Second, 10 * time.Second, 15 * time.Second, 25 * time.Second}
	if !equalDurations(lt.Waits, wantWaits) {
		t.Errorf("waits %v, want %v", lt.Waits, wantWaits)
	}
	// Holds seen from grant to release: s2 10s, s3 10s, s4 10s (s1's
	// first began before the log).
	wantHolds := []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}
	if !equalDurations(lt.Holds, wantHolds) {
		t.Errorf("holds %v, want %v", lt.Holds, wantHolds)
	}
	breaks := 0
	for _, sp := range lt.Spans {
		if sp.OutOfOrder {
			breaks++
		}
	}
	if breaks != 1 {
		t.Errorf("%d FIFO breaks marked, want 1", breaks)
	}
	if p := model.Percentile(lt.Waits, 0.5); p != 10*time.Second {
		t.Errorf("wait p50 %v", p)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
