package zkwatch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/loopback"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch/words"
)

func TestIntegrationEnricherStandalone(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t)
	watcher, reader := s.Connect(t), s.Connect(t)
	for _, p := range []string{"/app", "/app/lock", "/outside"} {
		if _, err := reader.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"/app/lock", "/outside"} {
		if _, _, _, err := watcher.GetW(p); err != nil {
			t.Fatal(err)
		}
	}
	session := watcher.SessionID()

	en := NewEnricher([]string{s.Addr()}, 0).Poll(context.Background())
	if len(en.Servers) != 1 || en.Servers[0].Status.Mode != "standalone" || en.Servers[0].Refused != nil || en.Servers[0].Err != nil {
		t.Fatalf("servers: %+v", en.Servers)
	}
	if got := en.Watches.Paths(session); !reflect.DeepEqual(got, []string{"/app/lock", "/outside"}) {
		t.Errorf("watches of the session: %q (note %q)", got, en.WatchesNote)
	}
	if got := en.ByPath["/app/lock"]; !reflect.DeepEqual(got, []int64{session}) {
		t.Errorf("watchers of /app/lock: %x", got)
	}
	if got := en.WithinChroot("/app").Watches.Paths(session); !reflect.DeepEqual(got, []string{"/lock"}) {
		t.Errorf("within /app: %q", got)
	}
	if en.Without(session).Watches.Sessions() != 0 {
		t.Errorf("watches left without the only watcher: %v", en.Without(session).ByPath)
	}

	if !en.Complete {
		t.Fatalf("not complete: %s", en.ClientsNote)
	}
	c, ok := en.Clients[session]
	if !ok {
		t.Fatalf("clients %+v lack session %#x", en.Clients, session)
	}
	addr, err := netip.ParseAddrPort(c.Client)
	if c.Server != s.Addr() || err != nil || !addr.Addr().IsLoopback() || addr.Port() == 0 || c.LastOperation == "" {
		t.Errorf("client %+v", c)
	}
	if _, ok := en.Clients[reader.SessionID()]; !ok || len(en.Clients) != 2 {
		t.Errorf("clients %+v, want the two sessions only", en.Clients)
	}
	if got := en.Ghosts([]int64{session, 0x7eadbeef}); !reflect.DeepEqual(got, []int64{0x7eadbeef}) {
		t.Errorf("ghosts %x", got)
	}
}

func TestIntegrationEnricherRefused(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t, zktest.WithFourLetterWords("srvr"))
	proxy := newWordProxy(t, s.Addr())
	e := NewEnricher([]string{proxy.addr}, 0) // no rate limit: every poll asks
	// Four-letter words only: whatever listens on this machine's port 8080
	// is not this server's AdminServer (TestIntegrationEnricherAdminServer
	// tests that way).
	e.Admin = &words.AdminServer{Off: true}
	for i := range 3 {
		en := e.Poll(context.Background())
		srv := en.Servers[0]
		if srv.Status.Mode != "standalone" || srv.Err != nil || !reflect.DeepEqual(srv.Refused, []string{"cons", "wchs", "wchc", "wchp"}) {
			t.Fatalf("poll %d: server %+v", i, srv)
		}
		if en.Watches != nil || en.ByPath != nil || !strings.Contains(en.WatchesNote, "refused by "+proxy.addr) {
			t.Errorf("poll %d: watches %v, note %q", i, en.Watches, en.WatchesNote)
		}
		if en.Complete || en.Ghosts([]int64{1}) != nil || !strings.Contains(en.ClientsNote, "cons refused") {
			t.Errorf("poll %d: complete %v, note %q", i, en.Complete, en.ClientsNote)
		}
	}
	want := map[string]int{"srvr": 3, "cons": 1, "wchs": 1, "wchc": 1, "wchp": 1}
	if got := proxy.counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("the server was asked %v, want %v: refused words once", got, want)
	}
}

func TestIntegrationEnricherEnsemble(t *testing.T) {
	t.Parallel()
	ens := zktest.StartEnsemble(t, 3)
	members := ens.Members()
	leader := ens.Leader()
	a, b := members[0].Connect(t), members[1].Connect(t)
	if _, _, _, err := b.ExistsW("/e"); err != nil { // a data watch, node or not
		t.Fatal(err)
	}
	var addrs []string
	for _, m := range members {
		addrs = append(addrs, m.Addr())
	}

	en := NewEnricher(addrs, 0).Poll(context.Background())
	if len(en.Servers) != 3 {
		t.Fatalf("servers: %+v", en.Servers)
	}
	for i, srv := range en.Servers {
		want := "follower"
		if i == leader {
			want = "leader"
		}
		if srv.Addr != addrs[i] || srv.Status.Mode != want || srv.Err != nil || srv.Refused != nil {
			t.Errorf("member %d: %+v, want a %s", i, srv, want)
		}
	}
	if !en.Complete {
		t.Fatalf("not complete: %s", en.ClientsNote)
	}
	for conn, member := range map[*zk.Conn]string{a: addrs[0], b: addrs[1]} {
		if c := en.Clients[conn.SessionID()]; c.Server != member {
			t.Errorf("session %#x: client %+v, want one connected to %s", conn.SessionID(), c, member)
		}
	}
	if got := en.Watches.Paths(b.SessionID()); !reflect.DeepEqual(got, []string{"/e"}) {
		t.Errorf("watches of b: %q (note %q)", got, en.WatchesNote)
	}

	// One member over the watch budget: no member's table is read, and
	// the note names that member alone.
	if _, _, _, err := b.ExistsW("/e2"); err != nil {
		t.Fatal(err)
	}
	proxies := make([]*wordProxy, len(addrs))
	var proxied []string
	for i, addr := range addrs {
		proxies[i] = newWordProxy(t, addr)
		proxied = append(proxied, proxies[i].addr)
	}
	e := NewEnricher(proxied, 0)
	e.Mode, e.Budget = WatchesAuto, 1
	// Counted, not timed: a count that outlasts the watcher's 2 s on a
	// loaded machine would be a failed count, and its note another.
	e.wordTimeout = time.Minute
	en = e.Poll(context.Background())
	if want := "2 watches, over the budget of 1, on " + proxied[1]; en.Watches != nil || en.WatchesNote != want {
		t.Errorf("one member over the budget: watches %v, note %q, want %q", en.Watches, en.WatchesNote, want)
	}
	for i, p := range proxies {
		if got := p.counts(); got["wchc"]+got["wchp"] != 0 || got["wchs"] != 1 || got["cons"] != 1 {
			t.Errorf("member %d asked %v: cons and wchs, no table", i, got)
		}
	}

	// Without a quorum, the last member up says it is not serving, to every
	// word but ruok; the stopped ones do not answer.
	members[0].Stop()
	members[1].Stop()
	en = pollUntil(t, NewEnricher(addrs, 0), func(en Enrichment) bool {
		return errors.Is(en.Servers[2].Err, words.ErrNotServing)
	})
	for i, srv := range en.Servers[:2] {
		if srv.Err == nil || errors.Is(srv.Err, words.ErrNotServing) || srv.Status.Mode != "" {
			t.Errorf("stopped member %d: %+v", i, srv)
		}
	}
	want := "no answer from " + addrs[0] + ", " + addrs[1] + "; not serving: " + addrs[2]
	if en.WatchesNote != want || en.ClientsNote != want || en.Watches != nil || en.Complete {
		t.Errorf("without quorum: watches %v, notes %q and %q, want %q", en.Watches, en.WatchesNote, en.ClientsNote, want)
	}
}

// pollUntil polls e until done accepts the picture, failing the test after
// 30 seconds.
func pollUntil(t *testing.T, e *Enricher, done func(Enrichment) bool) Enrichment {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		en := e.Poll(context.Background())
		if done(en) {
			return en
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30s: %+v", en)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wordProxy stands between an Enricher and a real server and counts the
// four-letter words that pass.
type wordProxy struct {
	addr string
	mu   sync.Mutex
	seen map[string]int
}

func newWordProxy(t *testing.T, server string) *wordProxy {
	t.Helper()
	p := &wordProxy{seen: map[string]int{}}
	p.addr = loopback.Serve(t, func(c net.Conn) {
		word := make([]byte, 4)
		if _, err := io.ReadFull(c, word); err != nil {
			return
		}
		p.mu.Lock()
		p.seen[string(word)]++
		p.mu.Unlock()
		up, err := net.Dial("tcp", server)
		if err != nil {
			return
		}
		defer up.Close()
		if _, err := up.Write(word); err == nil {
			_, _ = io.Copy(c, up)
		}
	})
	return p
}

func (p *wordProxy) counts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := map[string]int{}
	for w, n := range p.seen {
		c[w] = n
	}
	return c
}
