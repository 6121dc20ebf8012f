package ui

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/go-zookeeper/zk"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// t0 is the fixed clock of every test: locks are read at t0, and the App's
// clock says t0, so ages and times are deterministic.
var t0 = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// sid makes a realistic session id.
func sid(i int) int64 { return 0x100008e2d9b0000 + int64(i) }

// uuid makes a deterministic, realistic Curator protected-mode UUID.
func uuid(i int) string {
	x := uint64(i+1) * 0x9e3779b97f4a7c15
	return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", uint32(x>>32), uint16(x>>16), uint16(x)&0xfff,
		uint16(x>>20)&0xfff, x&0xffffffffffff)
}

func curator(kind string, i, seq int) string { return fmt.Sprintf("_c_%s-%s%010d", uuid(i), kind, seq) }
func kazoo(kind string, i, seq int) string {
	return fmt.Sprintf("%032x%s%010d", uint64(i)*0x1f3d5b79, kind, seq)
}

// tree builds lock trees with increasing czxids and ctimes.
type tree struct {
	t    lockcore.Tree
	zxid int64
}

func newTree(path string) *tree {
	return &tree{t: lockcore.Tree{Path: path, ReadAt: t0}, zxid: 0x100000000}
}

// kid adds a contender created age ago, owned by session (0: persistent).
func (b *tree) kid(name string, session int64, age time.Duration, data string) *tree {
	b.t.Children = append(b.t.Children, b.node(name, session, age, data))
	return b
}

func (b *tree) node(name string, session int64, age time.Duration, data string) lockcore.Node {
	b.zxid += 7
	return lockcore.Node{Name: name, Data: []byte(data), Stat: zk.Stat{Czxid: b.zxid, Mzxid: b.zxid, Pzxid: b.zxid,
		EphemeralOwner: session, Ctime: t0.Add(-age).UnixMilli(), Mtime: t0.Add(-age).UnixMilli(),
		DataLength: int32(len(data))}}
}

// settled sets the parent's pzxid to its newest child's czxid, as a
// ZooKeeper tree that nobody has left since the last contender joined has.
func (b *tree) settled() *tree {
	for _, c := range b.t.Children {
		b.t.Self.Stat.Pzxid = max(b.t.Self.Stat.Pzxid, c.Stat.Czxid)
	}
	return b
}

// seenGranted says the watcher saw child i get the lock ago, watching.
func (b *tree) seenGranted(i int, ago time.Duration) *tree {
	c := b.t.Children[i]
	at := t0.Add(-ago)
	b.t.Seen = &lockcore.Sightings{At: t0.Add(-time.Second), Nodes: []lockcore.Sighting{{
		Path: b.t.Path + "/" + c.Name, Token: c.Stat.Czxid,
		Hold: &lockcore.Hold{After: at, By: at, How: lockcore.HoldSeen}}}}
	b.t.Watched = true
	return b
}

func (b *tree) analyze(w map[int64][]string, opt lockcore.Options) *lockcore.Lock {
	var table *lockcore.WatchTable
	if w != nil {
		// Read after a table that saw every node: each waiter is judged.
		table = lockcore.NewWatchTable(w).Since(math.MaxInt64)
	}
	l := lockcore.Analyze(b.t, table, opt)
	return &l
}

var longHeld = lockcore.Options{LongHeld: 5 * time.Minute}

// fixtureLocks are the locks of the golden screens: real client names,
// every kind of trouble, and hostile names and data.
func fixtureLocks() []*lockcore.Lock {
	var locks []*lockcore.Lock

	// Curator InterProcessReadWriteLock, RRWRRWWR, confirmed by the
	// servers' watch table.
	orders := newTree("/locks/orders")
	pattern := "RRWRRWWR"
	for i, c := range pattern {
		kind := "__WRIT__"
		if c == 'R' {
			kind = "__READ__"
		}
		orders.kid(curator(kind, i, i), sid(2+i), time.Duration(41-i)*time.Second, fmt.Sprintf("10.0.0.%d", 7+i))
	}
	name := func(i int) string { return orders.t.Children[i].Name }
	abs := func(i int) string { return "/locks/orders/" + name(i) }
	ordersWatches := map[int64][]string{
		sid(4): {abs(1)}, sid(5): {abs(2)}, sid(6): {abs(2)}, sid(7): {abs(4)}, sid(8): {abs(5)}, sid(9): {abs(2)},
	}
	locks = append(locks, orders.analyze(ordersWatches, longHeld))

	// Curator InterProcessMutex, queued two hours ago and seen granted
	// 1h50m ago: long-held.
	billing := newTree("/locks/billing")
	billing.kid(curator("lock-", 20, 17), sid(20), 2*time.Hour, "10.0.1.20")
	billing.kid(curator("lock-", 21, 18), sid(21), 12*time.Minute, "10.0.1.21")
	billing.kid(curator("lock-", 22, 19), sid(22), 3*time.Minute+5*time.Second, "10.0.1.22")
	locks = append(locks, billing.seenGranted(0, 110*time.Minute).analyze(nil, longHeld))

	// kazoo 2.8 ReadLock waiting on a later write: a wait cycle.
	jobs := newTree("/app/kazoo/jobs")
	jobs.kid(kazoo("__rlock__", 31, 1), sid(31), 90*time.Second, "worker-31")
	jobs.kid(kazoo("__lock__", 32, 2), sid(32), 80*time.Second, "worker-32")
	jobsAbs := func(i int) string { return "/app/kazoo/jobs/" + jobs.t.Children[i].Name }
	locks = append(locks, jobs.analyze(map[int64][]string{sid(31): {jobsAbs(1)}, sid(32): {jobsAbs(0)}}, longHeld))

	// A plain ephemeral lock node, with two sessions watching it.
	leader := newTree("/services/scheduler/leader-lock")
	leader.t.Self = leader.node("leader-lock", sid(40), 7*time.Minute, "host-a:8080")
	locks = append(locks, leader.analyze(map[int64][]string{
		sid(41): {"/services/scheduler/leader-lock"}, sid(42): {"/services/scheduler/leader-lock"}}, longHeld))

	// Curator InterProcessSemaphoreV2: two leases held (one for at most
	// 25 minutes, a figure wider than its column's title), one acquirer queued.
	sem := newTree("/pool/workers")
	sem.t.Self = sem.node("workers", 0, time.Hour, "")
	sem.t.Children = []lockcore.Node{sem.node("leases", 0, time.Hour, ""), sem.node("locks", 0, time.Hour, "")}
	sem.t.Extra = map[string][]lockcore.Node{
		"/pool/workers/leases": {sem.node(curator("lease-", 50, 3), sid(50), 25*time.Minute, ""),
			sem.node(curator("lease-", 51, 4), sid(51), 4*time.Minute, "")},
		"/pool/workers/locks": {sem.node(curator("lock-", 52, 9), sid(52), 30*time.Second, "")},
	}
	locks = append(locks, sem.analyze(nil, longHeld))

	// Hostile names and data: a bidi override in a name, escape sequences
	// and an OSC title change in the data.
	evil := newTree("/locks/\u202eevil")
	evil.kid("report\u202etxt.exe-0000000001", sid(60), 20*time.Second, "\x1b]0;pwned\x07\x1b[31mred\x1b[0m")
	evil.kid("report-0000000002", sid(61), 10*time.Second, "ok\xff\xfe")
	locks = append(locks, evil.analyze(nil, longHeld))

	// A persistent contender, and an orphan of a session that waits
	// behind itself; nobody left since the last joined 50 s ago, so the
	// orphan has held for at least that, and at most its 26 hours.
	orphans := newTree("/locks/orphans")
	orphans.kid(curator("lock-", 70, 0), 0, 26*time.Hour, "")
	orphans.kid(curator("lock-", 71, 1), sid(71), time.Minute, "")
	orphans.kid(curator("lock-", 72, 2), sid(71), 50*time.Second, "")
	locks = append(locks, orphans.settled().analyze(nil, longHeld))

	locks = append(locks, newTree("/locks/idle").analyze(nil, longHeld))
	return locks
}

// fixtureState is the state of the golden screens: connected and synced,
// the fixture locks, a denied path, some clients known and some not, and
// an event log with a FIFO break.
func fixtureState() *model.State {
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: t0.Add(-time.Hour),
		Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "10.0.0.1:2181", Session: sid(1), Since: t0.Add(-time.Hour)}})
	for _, l := range fixtureLocks() {
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventDenied, At: t0, Path: "/secret/locks", Err: zk.ErrNoAuth})
	clients := map[int64]zkwatch.ClientInfo{}
	for _, i := range []int{2, 3, 4, 5, 6, 7, 20, 21, 31, 32, 40, 41, 50, 71} {
		clients[sid(i)] = zkwatch.ClientInfo{Session: sid(i), Server: "10.0.0.1:2181", Client: fmt.Sprintf("10.0.%d.%d:5%04d", i/10, i%10, i)}
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: t0, Clients: clients, Servers: []zkwatch.ServerInfo{
		{Addr: "10.0.0.1:2181"}, {Addr: "10.0.0.2:2181"}, {Addr: "10.0.0.3:2181"}}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0.Add(-50 * time.Second), Discovery: zkwatch.Discovery{Complete: true}})
	history(s)
	// The members' next answer still lists the story's sessions: they
	// outlived their nodes, so those were released.
	for i := 80; i <= 83; i++ {
		clients[sid(i)] = zkwatch.ClientInfo{Session: sid(i), Server: "10.0.0.1:2181", Client: fmt.Sprintf("10.0.%d.%d:5%04d", i/10, i%10, i)}
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: t0, ClientsAsked: t0.Add(-time.Second), Clients: clients, Servers: []zkwatch.ServerInfo{
		{Addr: "10.0.0.1:2181"}, {Addr: "10.0.0.2:2181"}, {Addr: "10.0.0.3:2181"}}})
	return s
}

// history plays a small fairness story on /locks/fifo: three contenders,
// the head releases, the next is granted; then a grant that overtakes.
func history(s *model.State) {
	at := t0.Add(-45 * time.Second)
	// Each contender is created at the step that first shows it.
	createdAt := map[int]int{0: 1, 1: 2, 2: 3, 3: 5}
	fifo := func(seqs ...int) *lockcore.Lock {
		b := newTree("/locks/fifo")
		for _, q := range seqs {
			ctime := t0.Add(-45*time.Second + time.Duration(createdAt[q])*1234*time.Millisecond)
			b.t.Children = append(b.t.Children, lockcore.Node{Name: curator("lock-", 80+q, q),
				Stat: zk.Stat{Czxid: int64(0x200000000 + q), EphemeralOwner: sid(80 + q), Ctime: ctime.UnixMilli()}})
		}
		return b.analyze(nil, lockcore.Options{})
	}
	step := func(l *lockcore.Lock) {
		at = at.Add(1234 * time.Millisecond)
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: l.Path, Lock: l})
	}
	step(fifo(0))
	step(fifo(0, 1))
	step(fifo(0, 1, 2))
	step(fifo(1, 2))
	odd := fifo(1, 2, 3)
	odd.Participants[0].Role, odd.Participants[1].Role = lockcore.RoleWaiter, lockcore.RoleHolder
	step(odd)
	step(fifo(3))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLockGone, At: at.Add(time.Second), Path: "/locks/fifo"})
}

// bigBinary is the first 64 KiB of a 1 MB binary node.
func bigBinary() zkwatch.NodeDetail {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	return zkwatch.NodeDetail{Path: "/x", Data: data[:zkwatch.NodeDataLimit], DataLen: len(data),
		Stat: zk.Stat{DataLength: int32(len(data))}}
}

// fakeReader answers node reads from the fixture, as ZooKeeper would.
func fakeReader(s *model.State) NodeReader {
	return func(ctx context.Context, path string) (zkwatch.NodeDetail, error) {
		for _, l := range s.Locks {
			for _, q := range l.Participants {
				if q.Path != path {
					continue
				}
				if q.DataDenied {
					return zkwatch.NodeDetail{}, fmt.Errorf("%s: %w", path, zk.ErrNoAuth)
				}
				d := zkwatch.NodeDetail{Path: path, Data: q.Data, DataLen: len(q.Data), ACL: zk.WorldACL(zk.PermAll),
					Stat: zk.Stat{Czxid: q.Token, Mzxid: q.Token + 2, Pzxid: q.Token, Ctime: q.Ctime.UnixMilli(),
						Mtime: q.Ctime.Add(time.Second).UnixMilli(), Version: 1, EphemeralOwner: q.Session,
						DataLength: int32(len(q.Data))}}
				if strings.Contains(path, "billing") {
					big := bigBinary()
					d.Data, d.DataLen, d.Stat.DataLength = big.Data, big.DataLen, big.Stat.DataLength
					d.ACL = append(d.ACL, zk.ACL{Perms: zk.PermRead, Scheme: "digest", ID: "ops:\u202eXh3w0BqR9="})
				}
				return d, nil
			}
		}
		return zkwatch.NodeDetail{}, fmt.Errorf("%s: %w", path, zk.ErrNoNode)
	}
}

// fakeChildren lists the fixture's tree as ZooKeeper would: every lock's
// path and contenders, and the nodes above them.
func fakeChildren(s *model.State) ChildrenReader {
	return func(ctx context.Context, p string) ([]string, int, error) {
		kids := map[string]bool{}
		known := p == "/"
		add := func(full string) {
			if full == p {
				known = true
			}
			prefix := strings.TrimSuffix(p, "/") + "/"
			if strings.HasPrefix(full, prefix) {
				known = true
				kids[strings.SplitN(full[len(prefix):], "/", 2)[0]] = true
			}
		}
		for _, l := range s.Locks {
			add(l.Path)
			for _, q := range l.Participants {
				add(q.Path)
			}
		}
		if !known {
			return nil, 0, fmt.Errorf("%s: %w", p, zk.ErrNoNode)
		}
		names := make([]string, 0, len(kids))
		for k := range kids {
			names = append(names, k)
		}
		sort.Strings(names)
		return names, len(names), nil
	}
}

// newTestApp returns an App on the fixture with a fixed clock, no colour,
// UTC times, sized w×h, its locks sorted most contended first (the tests
// that move the cursor count on it; sort_test.go tests the default).
func newTestApp(t testing.TB, w, h int, change ...func(*Options)) *App {
	t.Helper()
	s := fixtureState()
	opt := Options{State: s, Now: func() time.Time { return t0 }, Location: time.UTC, Profile: termenv.Ascii,
		Server: "10.0.0.1:2181,10.0.0.2:2181,10.0.0.3:2181", ReadNode: fakeReader(s),
		ReadChildren: fakeChildren(s), Sort: model.ByContention}
	for _, c := range change {
		c(&opt)
	}
	a := New(opt)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

// keyMsg turns "enter", "ctrl+c", "shift+tab" or text into a key message.
func keyMsg(k string) tea.KeyMsg {
	named := map[string]tea.KeyType{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"shift+tab": tea.KeyShiftTab, "up": tea.KeyUp, "down": tea.KeyDown, "ctrl+c": tea.KeyCtrlC,
		"backspace": tea.KeyBackspace, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "end": tea.KeyEnd,
		"home": tea.KeyHome, "ctrl+u": tea.KeyCtrlU, "ctrl+d": tea.KeyCtrlD}
	if t, ok := named[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// send delivers msg and every message its commands produce at once (the
// test App's commands never block), and reports whether one was tea.Quit.
func send(a *App, msg tea.Msg) (quit bool) {
	_, cmd := a.Update(msg)
	return runCmd(a, cmd, 0)
}

func runCmd(a *App, cmd tea.Cmd, depth int) bool {
	if cmd == nil || depth > 8 {
		return false
	}
	switch msg := cmd().(type) {
	case nil:
		return false
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		quit := false
		for _, c := range msg {
			quit = runCmd(a, c, depth+1) || quit
		}
		return quit
	default:
		_, next := a.Update(msg)
		return runCmd(a, next, depth+1)
	}
}

// press sends keys in order.
func press(a *App, keys ...string) (quit bool) {
	for _, k := range keys {
		quit = send(a, keyMsg(k)) || quit
	}
	return quit
}

// screen is the View without escape sequences.
func screen(a *App) string { return ansi.Strip(a.View()) }

// openDialog is the dialog open over the screen, or nil.
func openDialog(a *App) dialog {
	if b, ok := a.over.(*dialogBox); ok {
		return b.d
	}
	return nil
}

// helpOpen, costOpen and commandOpen say which overlay is open.
func helpOpen(a *App) bool {
	_, ok := a.over.(*helpOverlay)
	return ok
}

func costOpen(a *App) bool {
	_, ok := a.over.(*costOverlay)
	return ok
}

func commandOpen(a *App) bool {
	_, ok := a.over.(*commandBar)
	return ok
}
