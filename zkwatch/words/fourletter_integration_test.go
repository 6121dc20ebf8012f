package words

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

func TestIntegrationSrvrStandalone(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t)
	if _, err := s.Connect(t).Create("/srvr", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	st, err := fetchStatus(context.Background(), s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode != "standalone" || st.Addr != s.Addr() {
		t.Errorf("mode %q addr %q, want standalone at %s", st.Mode, st.Addr, s.Addr())
	}
	if st.Version == "" || st.Zxid <= 0 || st.NodeCount < 3 || st.Connections < 1 {
		t.Errorf("implausible status %+v", st)
	}
}

func TestIntegrationWatches(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t)
	a, b := s.Connect(t), s.Connect(t)
	for _, p := range []string{"/w", "/w/data", "/w/kids"} {
		if _, err := a.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	_, _, fired, err := a.GetW("/w/data") // data watch
	mustFLW(t, err)
	_, _, _, err = a.ExistsW("/w/missing") // exists watch on a missing node
	mustFLW(t, err)
	_, _, _, err = a.ChildrenW("/w/kids") // child watch: not in wchc/wchp
	mustFLW(t, err)
	_, _, _, err = b.GetW("/w/data")
	mustFLW(t, err)
	sa, sb := a.SessionID(), b.SessionID()

	wchc := fetchFLW(t, s.Addr(), "wchc", ParseWchc)
	if want := []string{"/w/data", "/w/missing"}; !reflect.DeepEqual(wchc[sa], want) {
		t.Errorf("wchc[a] = %q, want %q (data and exists watches; the child watch on /w/kids is not listed)", wchc[sa], want)
	}
	if want := []string{"/w/data"}; !reflect.DeepEqual(wchc[sb], want) {
		t.Errorf("wchc[b] = %q, want %q", wchc[sb], want)
	}
	wchp := fetchFLW(t, s.Addr(), "wchp", parseWchp)
	if want := sortedSessions(sa, sb); !reflect.DeepEqual(wchp["/w/data"], want) {
		t.Errorf("wchp[/w/data] = %x, want %x", wchp["/w/data"], want)
	}
	if got := wchp["/w/missing"]; !reflect.DeepEqual(got, []int64{sa}) {
		t.Errorf("wchp[/w/missing] = %x, want [%x]", got, sa)
	}
	if got, ok := wchp["/w/kids"]; ok {
		t.Errorf("wchp lists the child watch on /w/kids: %x; the server has started dumping child watches", got)
	}

	// Watches are one-shot: once fired, the server forgets them.
	if _, err := b.Set("/w/data", []byte("x"), -1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-fired:
	case <-time.After(10 * time.Second):
		t.Fatal("data watch did not fire")
	}
	wchc = fetchFLW(t, s.Addr(), "wchc", ParseWchc)
	if want := []string{"/w/missing"}; !reflect.DeepEqual(wchc[sa], want) {
		t.Errorf("after firing, wchc[a] = %q, want %q", wchc[sa], want)
	}
	if _, ok := wchc[sb]; ok { // the server lists b with no paths; the parser drops it
		t.Errorf("after firing, wchc still lists b: %q", wchc[sb])
	}
}

func TestIntegrationCons(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t)
	conn := s.Connect(t)
	if _, _, err := conn.Exists("/"); err != nil {
		t.Fatal(err)
	}
	conns := fetchFLW(t, s.Addr(), "cons", ParseCons)
	c, ok := findConnection(conns, conn.SessionID())
	if !ok {
		t.Fatalf("cons does not list session %#x: %+v", conn.SessionID(), conns)
	}
	if c.ClientAddr.Addr() != netip.MustParseAddr("127.0.0.1") || c.Timeout != 10*time.Second || c.LastOperation != "EXIS" {
		t.Errorf("our connection: %+v", c)
	}
	if d := time.Since(c.Established); d < -time.Minute || d > time.Minute {
		t.Errorf("established %v, %v from now", c.Established, d)
	}
	if _, ok := findConnection(conns, 0); !ok {
		t.Errorf("cons does not list the asking connection (session 0): %+v", conns)
	}
}

func TestIntegrationConsIPv6(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	l.Close()
	// "::" is the dual-stack wildcard: IPv4 for zktest's probes, ::1 for us.
	s := zktest.Start(t, zktest.WithConfig("clientPortAddress=::"))
	addr6 := fmt.Sprintf("[::1]:%d", s.Port())
	conn, events, err := zk.Connect([]string{addr6}, 10*time.Second, zk.WithLogInfo(false), zk.WithLogger(flwDiscardLogger{}))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	waitFLWSession(t, events)

	conns := fetchFLW(t, addr6, "cons", ParseCons)
	c, ok := findConnection(conns, conn.SessionID())
	if !ok {
		t.Fatalf("cons does not list session %#x: %+v", conn.SessionID(), conns)
	}
	if c.ClientAddr.Addr() != netip.IPv6Loopback() || c.Client[0] != '[' {
		t.Errorf("client %q addr %v, want [0:0:0:0:0:0:0:1]:port", c.Client, c.ClientAddr)
	}
}

func TestIntegrationRefused(t *testing.T) {
	t.Parallel()
	s := zktest.Start(t, zktest.WithFourLetterWords("srvr"))
	_, err := FourLetter(context.Background(), s.Addr(), "wchc")
	if !errors.Is(err, ErrFourLetterRefused) {
		t.Fatalf("wchc on a srvr-only server: err = %v, want ErrFourLetterRefused", err)
	}
	if !strings.Contains(err.Error(), "wchc") || !strings.Contains(err.Error(), s.Addr()) {
		t.Errorf("error %q does not name the word and the server", err)
	}
	if _, err := fetchStatus(context.Background(), s.Addr()); err != nil {
		t.Fatalf("srvr is whitelisted but failed: %v", err)
	}
}

// fetch sends word to addr and parses the reply, failing the test on error.
func fetchFLW[T any](t *testing.T, addr, word string, parse func(string) (T, error)) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	reply, err := FourLetter(ctx, addr, word)
	if err != nil {
		t.Fatal(err)
	}
	v, err := parse(reply)
	if err != nil {
		t.Fatalf("%v\nreply:\n%s", err, reply)
	}
	return v
}

func findConnection(conns []Connection, session int64) (Connection, bool) {
	for _, c := range conns {
		if c.Session == session {
			return c, true
		}
	}
	return Connection{}, false
}

func waitFLWSession(t *testing.T, events <-chan zk.Event) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return
			}
		case <-timeout:
			t.Fatal("no session after 15s")
		}
	}
}

func sortedSessions(ids ...int64) []int64 {
	slices.Sort(ids)
	return ids
}

func mustFLW(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// flwDiscardLogger is a zk.Logger that drops everything.
type flwDiscardLogger struct{}

func (flwDiscardLogger) Printf(string, ...any) {}

// fetchStatus asks addr for srvr and parses the reply, with Addr set.
func fetchStatus(ctx context.Context, addr string) (ServerStatus, error) {
	reply, err := FourLetter(ctx, addr, "srvr")
	if err != nil {
		return ServerStatus{}, err
	}
	st, err := ParseSrvr(reply)
	if err != nil {
		return ServerStatus{}, fmt.Errorf("words: srvr from %s: %w", addr, err)
	}
	st.Addr = addr
	return st, nil
}
