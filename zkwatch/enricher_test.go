package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/loopback"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// fakeMember is a server that answers four-letter words with captured
// replies and refuses, in the real server's words, any word it has no reply
// for. It counts what it is asked.
type fakeMember struct {
	addr    string
	replies map[string]string

	mu    sync.Mutex
	asked map[string]int
	// hold, when set, makes srvr wait until it is closed; entered then
	// receives once per srvr asked.
	hold, entered chan struct{}
}

func newFakeMember(t *testing.T, replies map[string]string) *fakeMember {
	t.Helper()
	m := &fakeMember{replies: replies, asked: map[string]int{}}
	m.addr = loopback.Serve(t, m.serve)
	return m
}

func (m *fakeMember) serve(c net.Conn) {
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil {
		return
	}
	w := string(buf)
	m.mu.Lock()
	m.asked[w]++
	hold, entered := m.hold, m.entered
	m.mu.Unlock()
	if w == "srvr" && hold != nil {
		entered <- struct{}{}
		<-hold
	}
	reply, ok := m.replies[w]
	if !ok {
		reply = w + " is not executed because it is not in the whitelist.\n"
	}
	_, _ = io.WriteString(c, reply)
}

// holdSrvr makes srvr wait for release; it returns the entered channel.
func (m *fakeMember) holdSrvr(t *testing.T) (entered <-chan struct{}, release func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hold, m.entered = make(chan struct{}), make(chan struct{}, 16)
	var once sync.Once
	release = func() { once.Do(func() { close(m.hold) }) }
	t.Cleanup(release)
	return m.entered, release
}

// counts returns how often each word was asked.
func (m *fakeMember) counts() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := map[string]int{}
	for w, n := range m.asked {
		c[w] = n
	}
	return c
}

// fakeClock is a settable clock for the Enricher's rate limit.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestEnricher returns an Enricher on a fake clock.
func newTestEnricher(interval time.Duration, members ...*fakeMember) (*Enricher, *fakeClock) {
	var addrs []string
	for _, m := range members {
		addrs = append(addrs, m.addr)
	}
	e := NewEnricher(addrs, interval)
	// The fakes answer four-letter words only; the AdminServer's way is
	// tested against real servers.
	e.Admin = &words.AdminServer{Off: true}
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e.now = clock.now
	return e, clock
}

func TestEnricherMergesMembers(t *testing.T) {
	leader := newFakeMember(t, map[string]string{
		"srvr": readReply(t, "srvr_leader.txt"),
		"cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"),
		"wchs": wchsReply(4),
	})
	// The follower refuses wchc; wchp tells the same.
	follower := newFakeMember(t, map[string]string{
		"srvr": readReply(t, "srvr_follower.txt"),
		"cons": readReply(t, "cons_follower.txt"),
		"wchp": "/locks/l2/lock-0000000000\n\t0x1000009615b0000\n",
		"wchs": wchsReply(1),
	})
	e, clock := newTestEnricher(time.Minute, leader, follower)
	en := e.Poll(context.Background())
	if !en.ClientsAsked.Equal(clock.now()) {
		t.Errorf("clients asked at %v, want %v", en.ClientsAsked, clock.now())
	}

	if len(en.Servers) != 2 || en.Servers[0].Status.Mode != "leader" || en.Servers[1].Status.Mode != "follower" {
		t.Fatalf("servers: %+v", en.Servers)
	}
	if en.Servers[0].Status.Addr != leader.addr || en.Servers[0].Refused != nil {
		t.Errorf("leader: %+v", en.Servers[0])
	}
	if got := en.Servers[1].Refused; !reflect.DeepEqual(got, []string{"wchc"}) {
		t.Errorf("follower refused %q, want [wchc]", got)
	}
	if got := leader.counts()["wchp"]; got != 0 {
		t.Errorf("wchp asked %d times of the leader, which answered wchc", got)
	}

	if !en.Complete || en.ClientsNote != "" || len(en.Clients) != 3 {
		t.Fatalf("complete %v (%q), clients %+v", en.Complete, en.ClientsNote, en.Clients)
	}
	want := ClientInfo{Session: 0x1000009615b0000, Server: follower.addr, Client: "127.0.0.1:49016",
		LastOperation: "EXIS", Established: time.UnixMilli(1795356080541), Timeout: 10 * time.Second}
	got := en.Clients[0x1000009615b0000]
	if !got.Asked.Equal(en.At) {
		t.Errorf("follower's client asked at %v, want at %v", got.Asked, en.At)
	}
	got.Asked, got.Silent = time.Time{}, 0
	if got != want {
		t.Errorf("follower's client %+v, want %+v", got, want)
	}
	if got := en.Clients[0x10000094ea10000]; got.Server != leader.addr || got.Client != "127.0.0.1:47382" {
		t.Errorf("leader's client %+v", got)
	}

	if en.Watches == nil || en.WatchesNote != "" {
		t.Fatalf("watches %v, note %q", en.Watches, en.WatchesNote)
	}
	if got, want := en.Watches.Watchers("/locks/l2/lock-0000000000"), []int64{0x10000094ea10001, 0x1000009615b0000}; !reflect.DeepEqual(got, want) {
		t.Errorf("watchers of /locks/l2/lock-0000000000: %x, want %x", got, want)
	}
	if got := en.ByPath["/locks/l1/_c_1-lock-0000000000"]; !reflect.DeepEqual(got, []int64{0x10000094ea10000, 0x10000094ea10001}) {
		t.Errorf("ByPath of /locks/l1/_c_1-lock-0000000000: %x", got)
	}
	if got := en.Ghosts([]int64{0x1000009615b0000, 0x42, 0, 0x42}); !reflect.DeepEqual(got, []int64{0x42}) {
		t.Errorf("ghosts %x, want [42]", got)
	}
}

func TestEnricherRemembersRefusals(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt")})
	e, clock := newTestEnricher(time.Second, m)
	for i := range 3 {
		en := e.Poll(context.Background())
		s := en.Servers[0]
		if s.Status.Mode != "standalone" || s.Err != nil || !reflect.DeepEqual(s.Refused, []string{"cons", "wchs", "wchc", "wchp"}) {
			t.Fatalf("poll %d: server %+v", i, s)
		}
		if en.Watches != nil || en.ByPath != nil || en.WatchesNote != "wchc and wchp refused by "+m.addr {
			t.Errorf("poll %d: watches %v, by path %v, note %q", i, en.Watches, en.ByPath, en.WatchesNote)
		}
		if en.Complete || en.ClientsNote != "cons refused by "+m.addr || en.Ghosts([]int64{1}) != nil {
			t.Errorf("poll %d: complete %v, note %q", i, en.Complete, en.ClientsNote)
		}
		clock.advance(time.Second)
	}
	if got, want := m.counts(), map[string]int{"srvr": 3, "cons": 1, "wchs": 1, "wchc": 1, "wchp": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("asked %v, want %v: srvr every poll, refused words once", got, want)
	}
}

func TestEnricherRateLimit(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt")})
	e, clock := newTestEnricher(10*time.Second, m)
	first := e.Poll(context.Background())
	clock.advance(9 * time.Second)
	if again := e.Poll(context.Background()); !again.At.Equal(first.At) || m.counts()["srvr"] != 1 {
		t.Errorf("within the interval: asked srvr %d times, at %v then %v", m.counts()["srvr"], first.At, again.At)
	}
	clock.advance(time.Second)
	if later := e.Poll(context.Background()); !later.At.After(first.At) || m.counts()["srvr"] != 2 {
		t.Errorf("after the interval: asked srvr %d times, at %v then %v", m.counts()["srvr"], first.At, later.At)
	}
}

func TestEnricherMemberDown(t *testing.T) {
	t.Run("not serving", func(t *testing.T) {
		m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_not_serving.txt")})
		e, _ := newTestEnricher(0, m)
		en := e.Poll(context.Background())
		if err := en.Servers[0].Err; !errors.Is(err, words.ErrNotServing) {
			t.Errorf("err = %v, want ErrNotServing", err)
		}
		if en.WatchesNote != "not serving: "+m.addr || en.ClientsNote != "not serving: "+m.addr {
			t.Errorf("notes %q, %q", en.WatchesNote, en.ClientsNote)
		}
		if got := m.counts(); !reflect.DeepEqual(got, map[string]int{"srvr": 1}) {
			t.Errorf("asked %v of a server that is not serving", got)
		}
	})
	t.Run("no answer, asked again", func(t *testing.T) {
		down := newFakeMember(t, map[string]string{"srvr": ""}) // hangs up
		up := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_follower.txt"), "cons": "", "wchc": "\n", "wchs": wchsReply(0)})
		e, _ := newTestEnricher(0, down, up)
		for i := range 2 {
			en := e.Poll(context.Background())
			if en.Servers[0].Err == nil || en.Servers[0].Refused != nil {
				t.Errorf("poll %d: down server %+v", i, en.Servers[0])
			}
			if en.Servers[1].Failed["cons"] == nil || en.Watches.Sessions() != 0 {
				t.Errorf("poll %d: up server %+v, watches %v", i, en.Servers[1], en.ByPath)
			}
			if want := "no answer from " + down.addr; en.WatchesNote != want || en.ClientsNote != want+"; cons failed at "+up.addr {
				t.Errorf("poll %d: notes %q, %q", i, en.WatchesNote, en.ClientsNote)
			}
		}
		// An empty reply is a failure, not a refusal: asked again.
		want := map[string]int{"srvr": 2}
		if got := down.counts(); !reflect.DeepEqual(got, want) {
			t.Errorf("down member asked %v, want %v", got, want)
		}
		want = map[string]int{"srvr": 2, "cons": 2, "wchs": 2, "wchc": 2}
		if got := up.counts(); !reflect.DeepEqual(got, want) {
			t.Errorf("up member asked %v, want %v", got, want)
		}
	})
}

func TestEnricherSharesOneAsk(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt")})
	entered, release := m.holdSrvr(t)
	e, _ := newTestEnricher(time.Minute, m)
	results := make(chan Enrichment, 2)
	go func() { results <- e.Poll(context.Background()) }()
	<-entered
	go func() { results <- e.Poll(context.Background()) }()
	waitWaiters(t, e, 2)
	release()
	a, b := <-results, <-results
	if a.At.IsZero() || !a.At.Equal(b.At) || m.counts()["srvr"] != 1 {
		t.Errorf("two polls: at %v and %v, srvr asked %d times", a.At, b.At, m.counts()["srvr"])
	}
}

func TestEnricherPollHonoursContext(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt")})
	entered, release := m.holdSrvr(t)
	e, _ := newTestEnricher(time.Minute, m)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Enrichment)
	go func() { done <- e.Poll(ctx) }()
	<-entered
	cancel()
	if en := <-done; !en.At.IsZero() || en.Servers != nil {
		t.Fatalf("cancelled first poll returned %+v, want the zero picture", en)
	}
	if en := e.Poll(ctx); !en.At.IsZero() {
		t.Fatalf("poll with a done context asked: %+v", en)
	}
	// The abandoned ask is not taken for an answer: the next poll asks.
	release()
	en := e.Poll(context.Background())
	if en.At.IsZero() || en.Servers[0].Status.Mode != "standalone" || m.counts()["srvr"] != 2 {
		t.Errorf("after an abandoned ask: %+v, srvr asked %d times", en, m.counts()["srvr"])
	}
}

// waitWaiters waits until n Polls wait for the ask under way.
func waitWaiters(t *testing.T, e *Enricher, n int) {
	t.Helper()
	for {
		e.mu.Lock()
		got := 0
		if e.flight != nil {
			got = e.flight.waiters
		}
		e.mu.Unlock()
		if got == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func TestEnrichmentWithinChroot(t *testing.T) {
	en := Enrichment{Complete: true}.withTable(map[int64][]string{
		1: {"/app", "/app/locks/a", "/other"},
		2: {"/apple", "/app/locks/a"},
	})
	got := en.WithinChroot("/app")
	if want := map[string][]int64{"/": {1}, "/locks/a": {1, 2}}; !reflect.DeepEqual(got.ByPath, want) {
		t.Errorf("ByPath %v, want %v", got.ByPath, want)
	}
	if p := got.Watches.Paths(1); !reflect.DeepEqual(p, []string{"/", "/locks/a"}) {
		t.Errorf("paths of 1: %q", p)
	}
	if got.Watches.Sessions() != 2 || en.Watches.Paths(2)[0] != "/app/locks/a" {
		t.Errorf("the original changed or sessions lost: %v, %q", got.ByPath, en.Watches.Paths(2))
	}
	if same := en.WithinChroot("/"); !reflect.DeepEqual(same.ByPath, en.ByPath) {
		t.Errorf("chroot / changed ByPath: %v", same.ByPath)
	}
	var unknown Enrichment
	if u := unknown.WithinChroot("/app").Without(1); u.Watches != nil || u.ByPath != nil {
		t.Errorf("an unknown table became known: %+v", u)
	}

	mine := en.Without(1)
	if mine.Watches.Paths(1) != nil || !reflect.DeepEqual(mine.ByPath["/app/locks/a"], []int64{2}) {
		t.Errorf("without 1: %v", mine.ByPath)
	}
	if _, ok := mine.ByPath["/other"]; ok {
		t.Errorf("a path only 1 watched is still listed: %v", mine.ByPath)
	}
}

func TestEnrichmentGhosts(t *testing.T) {
	clients := map[int64]ClientInfo{1: {Session: 1}, 2: {Session: 2}}
	for _, tc := range []struct {
		name     string
		complete bool
		owners   []int64
		want     []int64
	}{
		{"incomplete", false, []int64{3}, nil},
		{"all connected", true, []int64{1, 2, 2}, nil},
		{"ghosts sorted once", true, []int64{5, 1, 3, 5, 0}, []int64{3, 5}},
		{"no owners", true, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			en := Enrichment{Clients: clients, Complete: tc.complete}
			if got := en.Ghosts(tc.owners); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Ghosts(%v) = %v, want %v", tc.owners, got, tc.want)
			}
		})
	}
}

// wchsReply is a wchs answer counting total watches.
func wchsReply(total int) string {
	return fmt.Sprintf("2 connections watching %d paths\nTotal watches:%d\n", total, total)
}

func TestEnricherWatchBudget(t *testing.T) {
	replies := map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(250_000)}
	// Naming the locks of interest walks every lock tracked: it is asked
	// only for a table about to be read.
	interestAsked := func(e *Enricher) *int {
		n := new(int)
		e.Interest = func() Interest { *n++; return Interest{} }
		return n
	}
	t.Run("auto, over budget", func(t *testing.T) {
		m := newFakeMember(t, replies)
		e, _ := newTestEnricher(0, m)
		asked := interestAsked(e)
		en := e.Poll(context.Background())
		if en.Watches != nil || en.WatchesNote != "250000 watches, over the budget of 100000, on "+m.addr {
			t.Errorf("watches %v, note %q", en.Watches, en.WatchesNote)
		}
		if got := m.counts()["wchc"]; got != 0 {
			t.Errorf("wchc asked %d times over budget", got)
		}
		if *asked != 0 {
			t.Errorf("the locks of interest named %d times for a table not read", *asked)
		}
	})
	t.Run("auto, within a larger budget", func(t *testing.T) {
		m := newFakeMember(t, replies)
		e, _ := newTestEnricher(0, m)
		e.Budget = 300_000
		asked := interestAsked(e)
		if en := e.Poll(context.Background()); en.Watches == nil || en.WatchesNote != "" {
			t.Errorf("watches %v, note %q", en.Watches, en.WatchesNote)
		}
		if *asked != 1 {
			t.Errorf("the locks of interest named %d times for one table read, want once", *asked)
		}
	})
	t.Run("server", func(t *testing.T) {
		m := newFakeMember(t, replies)
		e, _ := newTestEnricher(0, m)
		e.Mode = WatchesServer
		if en := e.Poll(context.Background()); en.Watches == nil {
			t.Errorf("no table in server mode: %q", en.WatchesNote)
		}
		if got := m.counts()["wchs"]; got != 0 {
			t.Errorf("wchs asked %d times in server mode", got)
		}
	})
	t.Run("recipe", func(t *testing.T) {
		m := newFakeMember(t, replies)
		e, _ := newTestEnricher(0, m)
		e.Mode = WatchesRecipe
		asked := interestAsked(e)
		e.Poll(context.Background())
		if got := m.counts(); got["wchc"]+got["wchs"]+got["wchp"] != 0 {
			t.Errorf("asked %v in recipe mode", got)
		}
		if *asked != 0 {
			t.Errorf("the locks of interest named %d times in recipe mode", *asked)
		}
	})
}

func TestEnricherKeepsOnlyInterest(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(4)})
	e, _ := newTestEnricher(0, m)
	e.Interest = func() Interest {
		return Interest{Within: func(p string) bool { return strings.HasPrefix(p, "/locks/l1/") },
			Covers: func(l string) bool { return l == "/locks/l1" }}
	}
	en := e.Poll(context.Background())
	if got := en.Watches.Sessions(); got != 2 {
		t.Fatalf("sessions kept %d, want 2: %v", got, en.ByPath)
	}
	if en.Covers == nil || !en.Covers("/locks/l1") || en.Covers("/locks/l2") {
		t.Errorf("the table does not say which locks it covers")
	}
	if _, ok := en.ByPath["/locks/l2"]; ok {
		t.Errorf("a path outside the locks shown was kept: %v", en.ByPath)
	}
}

func TestEnricherPacesByCost(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(4)})
	e, clock := newTestEnricher(time.Second, m)
	e.Costs = words.NewCostsWithClock(clock.now)
	before := e.Poll(context.Background())
	first := m.counts()
	// The asks are recorded again as having taken a second: one in 300
	// seconds keeps each under a third of a percent of the member's time.
	e.Costs.Record(m.addr, "wchc", words.ViaWord, time.Second, 1<<20)
	e.Costs.Record(m.addr, "cons", words.ViaWord, time.Second, 1<<20)
	clock.advance(10 * time.Second)
	en := e.Poll(context.Background())
	if got := m.counts(); got["wchc"] != first["wchc"] || got["cons"] != first["cons"] || got["srvr"] != 2 {
		t.Errorf("asked %v after %v: wchc and cons should wait for their cost", got, first)
	}
	if en.Watches == nil || !en.Complete {
		t.Errorf("the kept answers were not reused: watches %v, complete %v", en.Watches, en.Complete)
	}
	if en.Watches != before.Watches {
		t.Errorf("the table read once was merged again")
	}
	if len(en.Cost) != 1 || en.Cost[0].Member != m.addr || en.Cost[0].Bytes == 0 {
		t.Errorf("cost %+v", en.Cost)
	}
}

func TestEnricherReadsOverBudgetForTheFocusedLock(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(250_000)})
	e, _ := newTestEnricher(0, m)
	e.Focus = func() Interest {
		return Interest{Within: func(p string) bool { return strings.HasPrefix(p, "/locks/l1/") },
			Covers: func(l string) bool { return l == "/locks/l1" }, Lock: "/locks/l1"}
	}
	en := e.Poll(context.Background())
	if en.Watches == nil || en.WatchesNote != "" || en.WatchesFor != "/locks/l1" {
		t.Fatalf("watches %v, note %q, for %q", en.Watches, en.WatchesNote, en.WatchesFor)
	}
	if _, ok := en.ByPath["/locks/l2/lock-0000000000"]; ok {
		t.Errorf("a watch outside the focused lock was kept: %v", en.ByPath)
	}
	if !en.Covers("/locks/l1") || en.Covers("/locks/l2") {
		t.Error("the table must cover the focused lock alone")
	}
}

// zklocks' mark is one server path, whatever the chroot of the watchers
// carrying it: kept as it is by a chrooted reader, so that a zklocks with
// another chroot, or none, is still known for one.
func TestEnrichmentWithinChrootKeepsTheMark(t *testing.T) {
	en := Enrichment{Complete: true}.withTable(map[int64][]string{
		1: {lockcore.ObserverMark, "/app/locks/a"},
		2: {"/app/locks/a"},
	})
	got := en.WithinChroot("/app")
	if want := map[string][]int64{lockcore.ObserverMark: {1}, "/locks/a": {1, 2}}; !reflect.DeepEqual(got.ByPath, want) {
		t.Errorf("ByPath %v, want %v", got.ByPath, want)
	}
	c := &Conn{target: Target{Chroot: "/app"}}
	in := c.interestIn(map[string]bool{"/locks/a": true}, map[string]bool{"/locks/a": true})
	if !in.Within(lockcore.ObserverMark) || !in.Within("/app/locks/a") || in.Within("/app/other") {
		t.Error("the interest in /locks/a does not keep the mark and the lock alone")
	}
	if p, ok := c.relOrMark(lockcore.ObserverMark); !ok || p != lockcore.ObserverMark {
		t.Errorf("the mark read through chroot /app: %q %v", p, ok)
	}
}

// A merged watch table needs every member's: while one member holds more
// watches than the budget, the others' tables are not read (their cost to
// the member and to zklocks would buy nothing), and the note names the
// member over the budget alone. wchs, which says so, is asked again only
// after overBudgetPeriods periods, of no member meanwhile.
func TestEnricherReadsNoTableWhileAMemberIsOverBudget(t *testing.T) {
	over := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_leader.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(250_000)})
	within := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_follower.txt"), "cons": readReply(t, "cons_follower.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(4)})
	e, clock := newTestEnricher(5*time.Second, over, within)
	named := 0
	e.Interest = func() Interest { named++; return Interest{} }
	note := "250000 watches, over the budget of 100000, on " + over.addr
	for i := range overBudgetPeriods {
		en := e.Poll(context.Background())
		if en.Watches != nil || en.WatchesNote != note {
			t.Fatalf("poll %d: watches %v, note %q, want %q", i, en.Watches, en.WatchesNote, note)
		}
		if !en.Complete {
			t.Errorf("poll %d: cons is asked as before: %q", i, en.ClientsNote)
		}
		clock.advance(5 * time.Second)
	}
	for _, m := range []*fakeMember{over, within} {
		if got := m.counts(); got["wchc"]+got["wchp"] != 0 || got["wchs"] != 1 || got["srvr"] != overBudgetPeriods {
			t.Errorf("%s asked %v: srvr every period, wchs once, no table", m.addr, got)
		}
	}
	if named != 0 {
		t.Errorf("the locks of interest named %d times for no table read", named)
	}
	e.Poll(context.Background())
	for _, m := range []*fakeMember{over, within} {
		if got := m.counts()["wchs"]; got != 2 {
			t.Errorf("%s asked wchs %d times after %d periods, want twice", m.addr, got, overBudgetPeriods)
		}
	}
}

// Over the budget, the focused lock's table is read of every member, the
// one within the budget too, for that lock alone: the members' whole
// tables are not merged with it.
func TestEnricherReadsEveryMemberForTheFocusedLockOverBudget(t *testing.T) {
	over := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_leader.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(250_000)})
	within := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_follower.txt"), "cons": readReply(t, "cons_follower.txt"),
		"wchp": "/locks/l2/lock-0000000000\n\t0x1000009615b0000\n", "wchs": wchsReply(1)})
	e, _ := newTestEnricher(5*time.Second, over, within)
	named := 0
	e.Interest = func() Interest { named++; return Interest{} }
	e.Focus = func() Interest {
		return Interest{Within: func(p string) bool { return strings.HasPrefix(p, "/locks/l2/") },
			Covers: func(l string) bool { return l == "/locks/l2" }, Lock: "/locks/l2"}
	}
	en := e.Poll(context.Background())
	if en.Watches == nil || en.WatchesNote != "" || en.WatchesFor != "/locks/l2" {
		t.Fatalf("watches %v, note %q, for %q", en.Watches, en.WatchesNote, en.WatchesFor)
	}
	if got, want := en.Watches.Watchers("/locks/l2/lock-0000000000"), []int64{0x10000094ea10001, 0x1000009615b0000}; !reflect.DeepEqual(got, want) {
		t.Errorf("watchers of the focused lock's node: %x, want %x (both members')", got, want)
	}
	if _, ok := en.ByPath["/locks/l1/_c_1-lock-0000000000"]; ok {
		t.Errorf("a watch outside the focused lock was kept: %v", en.ByPath)
	}
	if named != 0 {
		t.Errorf("every lock named %d times for tables read for one", named)
	}
}

// A member whose watch count fails (here an answer that does not parse;
// on a busy member, a timeout) may hold millions of watches: no table is
// read on a guess, its or another member's, and the note says why.
func TestEnricherReadsNoTableWhenACountFails(t *testing.T) {
	failing := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_leader.txt"), "cons": readReply(t, "cons.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": "not a count\n"})
	within := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_follower.txt"), "cons": readReply(t, "cons_follower.txt"),
		"wchc": readReply(t, "wchc.txt"), "wchs": wchsReply(4)})
	e, clock := newTestEnricher(5*time.Second, failing, within)
	for i := range 2 {
		en := e.Poll(context.Background())
		if want := "wchs failed at " + failing.addr; en.Watches != nil || en.WatchesNote != want {
			t.Errorf("poll %d: watches %v, note %q, want %q", i, en.Watches, en.WatchesNote, want)
		}
		clock.advance(5 * time.Second)
	}
	for _, m := range []*fakeMember{failing, within} {
		if got := m.counts(); got["wchc"]+got["wchp"] != 0 || got["wchs"] != 2 {
			t.Errorf("%s asked %v: wchs every period, no table", m.addr, got)
		}
	}
}
