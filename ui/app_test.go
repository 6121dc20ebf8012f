package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

func lockEvents(locks ...*lockcore.Lock) watchEventsMsg {
	var evs []zkwatch.Event
	for _, l := range locks {
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
	return watchEventsMsg{events: evs}
}

// mutex analyses a Curator mutex at path with n contenders.
func mutex(path string, n, first int) *lockcore.Lock {
	b := newTree(path)
	for i := 0; i < n; i++ {
		b.kid(curator("lock-", first+i, first+i), sid(first+i), time.Duration(n-i)*time.Second, "")
	}
	return b.analyze(nil, lockcore.Options{})
}

func selectedLock(a *App) string {
	if a.locks.cur.idx >= len(a.locks.rows) {
		return ""
	}
	return a.locks.rows[a.locks.cur.idx].path
}

// selectedLine is the screen line with the cursor marker.
func selectedLine(t *testing.T, a *App) string {
	t.Helper()
	for _, l := range strings.Split(screen(a), "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	t.Fatalf("no selected line:\n%s", screen(a))
	return ""
}

func TestCursorKeepsItsLockAcrossResort(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "down")
	if got := selectedLock(a); got != "/locks/billing" {
		t.Fatalf("after down: %s", got)
	}
	// Billing gains waiters and moves to the top; a new lock comes in
	// above where it was.
	send(a, lockEvents(mutex("/locks/billing", 12, 100), mutex("/locks/aaa-new", 5, 200)))
	if got := selectedLock(a); got != "/locks/billing" || a.locks.cur.idx != 0 {
		t.Fatalf("cursor on %s at %d, want /locks/billing at 0", got, a.locks.cur.idx)
	}
	if l := selectedLine(t, a); !strings.Contains(l, "/locks/billing") {
		t.Fatalf("selected line: %q", l)
	}
	// It drops to the bottom of the contended ones: still selected.
	send(a, lockEvents(mutex("/locks/billing", 1, 100)))
	if got := selectedLock(a); got != "/locks/billing" {
		t.Fatalf("cursor on %s after billing calmed down", got)
	}
	// When it goes, the cursor stays where it was in the list.
	at := a.locks.cur.idx
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLockGone, At: t0, Path: "/locks/billing"}}})
	if a.locks.cur.idx != at || selectedLock(a) == "/locks/billing" {
		t.Fatalf("after the lock went: cursor %d on %s", a.locks.cur.idx, selectedLock(a))
	}
}

func TestSortCycles(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "down") // billing
	for _, want := range []string{model.ByAge, model.ByPath, model.BySeverity, model.ByWait, model.ByContention} {
		press(a, "s")
		if got := lockOrders[a.locks.order]; got != want {
			t.Fatalf("order %s, want %s", got, want)
		}
		if selectedLock(a) != "/locks/billing" {
			t.Fatalf("sorting by %s lost the cursor: %s", want, selectedLock(a))
		}
		if !strings.Contains(screen(a), "by "+want) {
			t.Fatalf("title does not say by %s", want)
		}
	}
	for _, want := range []struct{ order, first string }{
		{model.ByAge, "/locks/orphans"},
		{model.ByPath, "/app/kazoo/jobs"},
		{model.BySeverity, "/locks/orphans"}, // persistent: stuck, and two more kinds
		{model.ByWait, "/locks/billing"},     // a waiter queued 12 min ago
	} {
		press(a, "s")
		if first := a.locks.rows[0].path; first != want.first {
			t.Fatalf("by %s, %s first, want %s", want.order, first, want.first)
		}
	}
}

func TestProblemsOnly(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "p")
	for _, r := range a.locks.rows {
		if r.lock != nil && len(r.lock.Anomalies) == 0 {
			t.Fatalf("%s has no anomaly yet is shown", r.path)
		}
	}
	sc := screen(a)
	if strings.Contains(sc, "/locks/idle") || !strings.Contains(sc, "/app/kazoo/jobs") || !strings.Contains(sc, "with problems") {
		t.Fatalf("problems only:\n%s", sc)
	}
	press(a, "p")
	if !strings.Contains(screen(a), "/locks/idle") {
		t.Fatal("p again does not show every lock")
	}
}

// TestRowOrderMatchesModel: the list sorts as `ls` does.
func TestRowOrderMatchesModel(t *testing.T) {
	a := newTestApp(t, 80, 24)
	s := a.env.state
	for i, order := range lockOrders {
		if order == model.ByAge {
			continue // by hold start, which stays right as time passes
		}
		a.locks.order = i
		a.locks.rebuild()
		var got, want []string
		for _, r := range a.locks.rows {
			if r.lock != nil {
				got = append(got, r.path)
			}
		}
		for _, l := range s.SortedLocks(order) {
			want = append(want, l.Path)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("by %s:\n got %v\nwant %v", order, got, want)
		}
	}
}

func TestFilter(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "/", "O", "r", "d")
	if !a.locks.filter.typing || len(a.locks.rows) != 1 || a.locks.rows[0].path != "/locks/orders" {
		t.Fatalf("filter /Ord: typing %v, rows %d", a.locks.filter.typing, len(a.locks.rows))
	}
	if !strings.Contains(screen(a), "/Ord█ 1 of 9") {
		t.Fatalf("prompt not shown:\n%s", screen(a))
	}
	if press(a, "q") {
		t.Fatal("q typed into the filter quit")
	}
	press(a, "backspace", "enter")
	if a.locks.filter.typing || a.locks.filter.text() != "Ord" {
		t.Fatalf("enter should keep the filter: %+v", a.locks.filter)
	}
	// Events keep the filter; a matching lock appears, others do not.
	send(a, lockEvents(mutex("/locks/orders-eu", 2, 300), mutex("/locks/payments", 2, 400)))
	if len(a.locks.rows) != 2 {
		t.Fatalf("rows after events: %d", len(a.locks.rows))
	}
	// Anomaly kinds and recipes match too.
	press(a, "/", "ctrl+u", "w", "a", "i", "t", "-", "c", "enter")
	if len(a.locks.rows) != 1 || a.locks.rows[0].path != "/app/kazoo/jobs" {
		t.Fatalf("filter by anomaly kind: %d rows", len(a.locks.rows))
	}
	press(a, "esc")
	if a.locks.filter.active() || len(a.locks.rows) != a.locks.total {
		t.Fatalf("esc should clear the filter: %d of %d", len(a.locks.rows), a.locks.total)
	}
	press(a, "/", "z", "z", "z", "enter")
	if !strings.Contains(screen(a), "no lock matches /zzz") {
		t.Fatalf("empty result not explained:\n%s", screen(a))
	}
}

func TestDrillInAndOut(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "enter")
	if a.focused() != focusDetail || a.detail.path != "/locks/orders" {
		t.Fatalf("enter: focus %d on %s", a.focused(), a.detail.path)
	}
	press(a, "j", "j", "j")
	if q := a.detail.selected(); q == nil || q.Position != 3 {
		t.Fatalf("selected %+v", q)
	}
	press(a, "enter")
	if a.focused() != focusNode || a.node.detail == nil || a.node.part.Position != 3 {
		t.Fatalf("node: focus %d, detail %v", a.focused(), a.node.detail)
	}
	if !strings.Contains(screen(a), "czxid") || !strings.Contains(screen(a), "world:anyone") {
		t.Fatalf("node screen:\n%s", screen(a))
	}
	press(a, "esc")
	if a.focused() != focusDetail || a.detail.selected().Position != 3 {
		t.Fatalf("esc from node: focus %d", a.focused())
	}
	press(a, "esc")
	if a.focused() != focusLocks || selectedLock(a) != "/locks/orders" {
		t.Fatalf("esc from detail: focus %d on %s", a.focused(), selectedLock(a))
	}
	// Denied paths cannot be opened, and say why.
	press(a, "G", "enter")
	if a.focused() != focusLocks || !strings.Contains(screen(a), "ACL denies this session") {
		t.Fatalf("denied path opened:\n%s", screen(a))
	}
}

func TestDetailFollowsItsParticipant(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, lockEvents(mutex("/locks/m", 4, 500)))
	send(a, openLockMsg{path: "/locks/m"})
	press(a, "j", "j")
	sel := a.detail.selected().Path
	// The head releases: the selection moves up a place, and stays.
	send(a, lockEvents(mutex("/locks/m", 3, 501)))
	if q := a.detail.selected(); q == nil || q.Path != sel || q.Position != 1 {
		t.Fatalf("selection after the head left: %+v", q)
	}
	// The lock goes: its last picture stays, marked.
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLockGone, At: t0, Path: "/locks/m"}}})
	if !a.detail.gone || !strings.Contains(screen(a), "GONE") || a.detail.selected().Path != sel {
		t.Fatalf("gone lock:\n%s", screen(a))
	}
}

func TestTabsAndHelp(t *testing.T) {
	a := newTestApp(t, 80, 24)
	for _, want := range []focus{focusSessions, focusEvents, focusTimeline, focusLocks} {
		press(a, "tab")
		if a.focused() != want {
			t.Fatalf("tab: %d, want %d", a.focused(), want)
		}
	}
	press(a, "shift+tab")
	if a.focused() != focusTimeline {
		t.Fatalf("shift+tab: %d", a.focused())
	}
	press(a, "1", "enter", "2")
	if a.focused() != focusSessions || len(a.drill) != 0 {
		t.Fatal("a number key leaves the detail for its screen")
	}
	press(a, "?")
	if !helpOpen(a) || !strings.Contains(screen(a), "Reading the screen") {
		t.Fatal("? should open the help")
	}
	press(a, "j")
	if !helpOpen(a) || a.sessions.cur.idx != 0 {
		t.Fatal("keys other than ?/esc/q do nothing under the help")
	}
	press(a, "?")
	if helpOpen(a) {
		t.Fatal("? should close the help")
	}
	press(a, "?", "esc")
	if helpOpen(a) || a.focused() != focusSessions {
		t.Fatal("esc should close the help only")
	}
}

func TestResize(t *testing.T) {
	a := newTestApp(t, 120, 40)
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 10}, {33, 7}, {120, 40}} {
		send(a, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
		for _, keys := range [][]string{{"1"}, {"enter"}, {"j", "enter"}, {"esc", "esc", "2"}, {"3"}} {
			press(a, keys...)
			checkSize(t, screen(a), sz.w, sz.h)
		}
		press(a, "1")
	}
	send(a, tea.WindowSizeMsg{Width: 20, Height: 5})
	if !strings.Contains(screen(a), "terminal too small") {
		t.Fatalf("20×5:\n%s", screen(a))
	}
	checkSize(t, screen(a), 20, 5)
	if !press(a, "q") {
		t.Fatal("q should quit even when too small")
	}
}

func TestQuit(t *testing.T) {
	a := newTestApp(t, 80, 24)
	_, cmd := a.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not return tea.Quit")
	}
	press(a, "/")
	if !press(a, "ctrl+c") {
		t.Fatal("ctrl+c should quit from the filter prompt")
	}
}

func TestWatchEventsBatchAndClose(t *testing.T) {
	ch := make(chan zkwatch.Event, 400)
	for i := 0; i < 300; i++ {
		ch <- zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: fmt.Sprintf("/l/%03d", i), Lock: mutex(fmt.Sprintf("/l/%03d", i), 1, i)}
	}
	msg := waitForEvents(ch)().(watchEventsMsg)
	if len(msg.events) != maxBatch || msg.closed {
		t.Fatalf("first batch: %d events, closed %v", len(msg.events), msg.closed)
	}
	close(ch)
	a := newTestApp(t, 80, 24, func(o *Options) { o.Events = ch })
	_, next := a.Update(msg)
	if next == nil || len(a.env.state.Locks) != 8+maxBatch {
		t.Fatalf("after a batch: next %v, %d locks", next, len(a.env.state.Locks))
	}
	rest := next().(watchEventsMsg)
	if len(rest.events) != 300-maxBatch || !rest.closed {
		t.Fatalf("second batch: %d events, closed %v", len(rest.events), rest.closed)
	}
	_, next = a.Update(rest)
	if next != nil || !a.closed || len(a.env.state.Locks) != 308 {
		t.Fatalf("after close: next %v, closed %v", next, a.closed)
	}
	if s := screen(a); !strings.Contains(s, "watch stopped") || !strings.Contains(s, "STALE") {
		t.Fatalf("a closed watch is not shown:\n%s", s)
	}
}

func TestConnectionStates(t *testing.T) {
	a := newTestApp(t, 100, 24)
	conn := func(phase zkwatch.ConnPhase) {
		send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventConn, At: t0,
			Conn: zkwatch.ConnState{Phase: phase, Session: sid(1), Since: t0.Add(-3 * time.Second)}}}})
	}
	conn(zkwatch.Disconnected)
	if s := screen(a); !strings.Contains(s, "reconnecting since 02:59:57") || !strings.Contains(s, "STALE") ||
		!strings.Contains(s, "/locks/orders") {
		t.Fatalf("disconnected: the last picture, marked stale:\n%s", s)
	}
	conn(zkwatch.Expired)
	if s := screen(a); !strings.Contains(s, "session expired 02:59:57") {
		t.Fatalf("expired:\n%s", s)
	}
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventError, At: t0, Err: errors.New("read /x: \x1b[2Jboom")}}})
	if s := screen(a); !strings.Contains(s, `read /x: \x1b[2Jboom`) {
		t.Fatalf("watch error not shown escaped:\n%s", s)
	}
}

func TestNodeReadError(t *testing.T) {
	a := newTestApp(t, 80, 24, func(o *Options) {
		o.ReadNode = func(ctx context.Context, path string) (zkwatch.NodeDetail, error) {
			return zkwatch.NodeDetail{}, fmt.Errorf("%s: %w", path, zk.ErrNoNode)
		}
	})
	press(a, "enter", "enter")
	s := screen(a)
	if a.focused() != focusNode || !strings.Contains(s, "could not read the node") ||
		!strings.Contains(s, "node does not exist") || !strings.Contains(s, "from the lock's last read") {
		t.Fatalf("read error:\n%s", s)
	}
	if last := strings.Split(s, "\n")[22]; !strings.Contains(last, "✗") {
		t.Fatalf("error not in the status line: %q", last)
	}
	press(a, "esc")
	if a.focused() != focusDetail {
		t.Fatal("esc should leave the node screen after an error")
	}
	// An answer for a node no longer shown is dropped.
	a.Update(nodeReadMsg{id: 99, err: errors.New("late")})
	if strings.Contains(screen(a), "late") {
		t.Fatal("a late answer was shown")
	}
}

func TestNodeHexToggleAndScroll(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "enter")
	if !a.node.dump || a.node.total() != len(a.node.head)+zkwatch.NodeDataLimit/16 {
		t.Fatalf("binary node: dump %v, %d lines", a.node.dump, a.node.total())
	}
	press(a, "G")
	if s := screen(a); !strings.Contains(s, "0000fff0  ") {
		t.Fatalf("end of the 64 KiB not reachable:\n%s", s)
	}
	press(a, "esc", "esc")
	send(a, openLockMsg{path: "/locks/orders"})
	press(a, "enter", "x")
	if !a.node.dump || !strings.Contains(screen(a), "|10.0.0.7|") {
		t.Fatalf("x should show text as hex:\n%s", screen(a))
	}
}

func TestMouseWheel(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if a.locks.cur.idx != 3 {
		t.Fatalf("wheel down: cursor %d", a.locks.cur.idx)
	}
}

func TestSessionsAndEventsOpenLocks(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "2", "/")
	for _, r := range "10.0.7.1" {
		press(a, string(r))
	}
	press(a, "enter")
	if s := screen(a); !strings.Contains(s, "0x100008e2d9b0047") || strings.Contains(s, "0x100008e2d9b0002") {
		t.Fatalf("sessions filter by client:\n%s", s)
	}
	press(a, "j", "j", "enter")
	if q := a.detail.selected(); a.focused() != focusDetail || a.detail.path != "/locks/orphans" || q.Position != 2 {
		t.Fatalf("sessions enter: %d %s %+v", a.focused(), a.detail.path, q)
	}
	press(a, "3")
	if a.events.cur.idx != len(a.env.state.History)-1 {
		t.Fatal("events should start on the newest entry")
	}
	press(a, "enter")
	if a.focused() != focusEvents || !strings.Contains(screen(a), "no longer a lock") {
		t.Fatalf("opening a gone lock:\n%s", screen(a))
	}
	// Following the tail: new entries keep the cursor on the newest.
	send(a, lockEvents(mutex("/locks/billing", 2, 21)))
	if a.events.cur.idx != len(a.env.state.History)-1 {
		t.Fatal("the cursor should follow new entries")
	}
	press(a, "k")
	at := a.events.cur.idx
	send(a, lockEvents(mutex("/locks/billing", 1, 22)))
	if a.events.cur.idx != at {
		t.Fatal("the cursor should stay when not on the newest entry")
	}
}

func TestConfirmDialog(t *testing.T) {
	a := newTestApp(t, 80, 24)
	ran := 0
	yes := func() tea.Msg { ran++; return nil }
	a.open(&confirmDialog{title: "release /locks/orders #0?", lines: []string{"deletes the holder's node"}, yes: yes})
	if !strings.Contains(screen(a), "y confirms") {
		t.Fatalf("dialog not shown:\n%s", screen(a))
	}
	press(a, "enter")
	if openDialog(a) != nil || ran != 0 {
		t.Fatal("enter must cancel")
	}
	a.open(&confirmDialog{title: "release?", yes: yes})
	if press(a, "q") || openDialog(a) != nil || ran != 0 {
		t.Fatal("q in a dialog cancels, it does not quit")
	}
	a.open(&confirmDialog{title: "release?", yes: yes})
	press(a, "y")
	if openDialog(a) != nil || ran != 1 {
		t.Fatal("y must confirm")
	}
	ro := newTestApp(t, 80, 24, func(o *Options) { o.ReadOnly = true })
	if ro.op.guardWrite("release") || !strings.Contains(screen(ro), "read-only: release is disabled") {
		t.Fatalf("read-only guard:\n%s", screen(ro))
	}
	if !a.op.guardWrite("release") {
		t.Fatal("guard refused a writable App")
	}
}

func TestKeysReadTogether(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if a.locks.cur.idx != 2 {
		t.Fatalf("jj read as one message moved to %d, want 2", a.locks.cur.idx)
	}
	send(a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/jobs")})
	if !a.locks.filter.typing || a.locks.filter.text() != "jobs" {
		t.Fatalf("filter after /jobs: %+v", a.locks.filter)
	}
}

func TestClientAddressNeverGuessed(t *testing.T) {
	a := newTestApp(t, 120, 40)
	send(a, openLockMsg{path: "/locks/orders"})
	press(a, "G")
	if !lineHas(screen(a), "0x100008e2d9b0009", " ? ") {
		t.Fatalf("an unknown client should be ?:\n%s", screen(a))
	}
	// Every server answered cons, asked after the lock was read, and none
	// lists the session: not known yet (it may be handshaking again)...
	answer := func(asked time.Duration) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(asked + time.Second),
			ClientsAsked: t0.Add(asked), ClientsComplete: true, Clients: a.env.state.Clients, Servers: a.env.state.Servers}
	}
	send(a, watchEventsMsg{events: []zkwatch.Event{answer(time.Second)}})
	if lineHas(screen(a), "0x100008e2d9b0009", "disconnected") {
		t.Fatalf("a session missing from one answer should not be disconnected yet:\n%s", screen(a))
	}
	// ... and still none a second look later: disconnected.
	send(a, watchEventsMsg{events: []zkwatch.Event{answer(time.Second + zkwatch.SecondLook)}})
	if !lineHas(screen(a), "0x100008e2d9b0009", "disconnected") {
		t.Fatalf("a session no server lists should be disconnected:\n%s", screen(a))
	}
}

func lineHas(screen string, texts ...string) bool {
	for _, line := range strings.Split(screen, "\n") {
		all := true
		for _, x := range texts {
			all = all && strings.Contains(line, x)
		}
		if all {
			return true
		}
	}
	return false
}

func TestFitPathKeepsTheLastElementsAndTheStart(t *testing.T) {
	for _, tc := range []struct {
		path string
		w    int
		want string
	}{
		{"/locks/orders", 20, "/locks/orders       "},
		{"/services/scheduler/leader-lock", 27, "/ser…/scheduler/leader-lock"},
		{"/zklocks-demo/exclusive", 20, "/zklocks-…/exclusive"},
		{"/zklocks-demo/naive/lock", 20, "/zklocks…/naive/lock"},
		{"/a/a-very-long-lock-name-indeed", 12, "…name-indeed"},
	} {
		if got := fitPath(tc.path, tc.w); got != tc.want {
			t.Errorf("fitPath(%q, %d) = %q, want %q", tc.path, tc.w, got, tc.want)
		}
	}
}

func TestOneLockIsSingular(t *testing.T) {
	s := model.NewState()
	l := fixtureLocks()[0]
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	a := newTestApp(t, 80, 24, func(o *Options) { o.State = s })
	if sc := screen(a); !strings.Contains(sc, " 1 lock · by contention") {
		t.Errorf("one lock:\n%s", sc)
	}
}

// A lock that goes keeps its last picture, marked GONE where 80 columns
// cannot cut it off, and its holder's hold stops growing: nothing holds
// there any more.
func TestDetailGoneLockAt80Columns(t *testing.T) {
	now := t0
	a := newTestApp(t, 80, 24, func(o *Options) { o.Now = func() time.Time { return now } })
	path := "/services/payments/settlement/batch-reconciliation/locks/nightly"
	send(a, lockEvents(mutex(path, 2, 700)))
	send(a, openLockMsg{path: path})
	held := func() string {
		for _, l := range strings.Split(screen(a), "\n") {
			if strings.Contains(l, "holder") {
				return l
			}
		}
		t.Fatalf("no holder row:\n%s", screen(a))
		return ""
	}
	send(a, watchEventsMsg{events: []zkwatch.Event{{Kind: zkwatch.EventLockGone, At: t0, Path: path}}})
	first := strings.Split(screen(a), "\n")
	if !a.detail.gone || !slices.ContainsFunc(first, func(l string) bool { return strings.Contains(l, "GONE") && strings.Contains(l, "/services") }) {
		t.Fatalf("gone lock at 80 columns:\n%s", screen(a))
	}
	before := held()
	now = now.Add(time.Minute)
	// The tick's own next tick is a one-second timer: the test is the
	// clock here, so only the tick itself is applied.
	a.Update(tickMsg(now))
	if after := held(); after != before {
		t.Errorf("the hold of a gone lock kept counting:\n%s\n%s", before, after)
	}
}
